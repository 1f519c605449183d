/** The token of an `Authorization: Bearer <token>` header, if that is what it holds. */
export function bearerToken(header: string | null): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
