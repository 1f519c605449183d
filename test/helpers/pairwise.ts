/**
 * Every pair of values of three factors, in as many cases as the first two crossed: the first two
 * factors are crossed in full and the third follows them cyclically (`third[(i + j) % n]`), which
 * meets each value of the third with each value of the first and of the second once `n` is no
 * larger than either. A fault that needs two values together is still met; one that needs three
 * particular values together may not be, for a third of the cases or fewer.
 */
export function pairwise<A, B, C>(first: readonly A[], second: readonly B[], third: readonly C[]): [A, B, C][] {
  if (third.length > first.length || third.length > second.length) throw new Error('pairwise: the third factor must have no more values than either of the others');
  return first.flatMap((a, i) => second.map((b, j): [A, B, C] => [a, b, third[(i + j) % third.length]]));
}
