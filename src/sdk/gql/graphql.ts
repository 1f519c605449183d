/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** How hard a problem is, derived from its rating: EASY below 1400, MEDIUM below 2100, HARD from 2100. */
export type Difficulty =
  /** Rating below 1400. */
  | 'EASY'
  /** Rating 2100 and above. */
  | 'HARD'
  /** Rating from 1400 to 2099. */
  | 'MEDIUM';

/** Conditions a problem must meet to be listed; all given conditions must hold. */
export type ProblemFilter = {
  /** Keep problems with any of these difficulties. */
  difficulty?: Array<Difficulty> | null | undefined;
  /** Keep problems with rating at most this. */
  ratingMax?: number | null | undefined;
  /** Keep problems with rating at least this. */
  ratingMin?: number | null | undefined;
  /** Keep problems whose title or statement contains this text, ignoring case. */
  search?: string | null | undefined;
  /** Keep problems that have all of these tags. */
  tags?: Array<string> | null | undefined;
};

/** How to order problems. */
export type ProblemSort = {
  /** Direction of the sort. */
  direction?: SortDirection | null | undefined;
  /** Field to sort by. */
  field: ProblemSortField;
};

/** Fields problems can be sorted by. */
export type ProblemSortField =
  /** Share of accepted submissions. */
  | 'ACCEPTANCE_RATE'
  /** Problem id (the order of publication). */
  | 'ID'
  /** Difficulty rating. */
  | 'RATING'
  /** Number of submissions. */
  | 'SUBMISSIONS'
  /** Title, alphabetically. */
  | 'TITLE';

/** Sort direction. */
export type SortDirection =
  /** Smallest first. */
  | 'ASC'
  /** Largest first. */
  | 'DESC';

/** How a text in the reader's language was made. */
export type TranslationKind =
  /** By a person: an operator's translation, served before any machine translation. */
  | 'CURATED'
  /** By the translation service. */
  | 'MACHINE'
  /** Not translated: the original text, because no language the reader asked for (nor a default one) is offered, or the original already is in one (`from`, TRANSLATION_SOURCE_LANGUAGE, or as the service detected it), or the service gave the text back unchanged. Never MACHINE when nothing was translated. */
  | 'ORIGINAL';

export type ProblemsInLanguageQueryVariables = Exact<{
  to: Array<string> | string;
  first?: number | null | undefined;
}>;


export type ProblemsInLanguageQuery = { problems: { nodes: Array<{ id: string, title: string, translation: { language: string, title: string, statement: string } | null }> } | null };

export type ProblemsInReadersLanguageQueryVariables = Exact<{
  first?: number | null | undefined;
}>;


export type ProblemsInReadersLanguageQuery = { problems: { nodes: Array<{ id: string, title: string, translation: { language: string, title: string, statement: string, provenance: { kind: TranslationKind, sourceLanguage: string | null, madeAt: string | null, stale: boolean } } | null }> } | null };

export type ProblemsPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  filter?: ProblemFilter | null | undefined;
  sort?: ProblemSort | null | undefined;
}>;


export type ProblemsPageQuery = { problems: { totalCount: number, nodes: Array<{ id: string, title: string, rating: number, tags: Array<string>, statistics: { acceptanceRate: number } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } | null };

export type TranslateTextQueryVariables = Exact<{
  text: string;
  to: Array<string> | string;
  from?: string | null | undefined;
}>;


export type TranslateTextQuery = { translation: { translate: { text: string, detectedLanguage: { code: string, confidence: number } | null } | null } };

export type TranslationLanguagesQueryVariables = Exact<{ [key: string]: never; }>;


export type TranslationLanguagesQuery = { translation: { languages: Array<{ code: string, name: string, targets: Array<string> }> | null } };


export const ProblemsInLanguageDocument = {"__meta__":{"hash":"b996febf1041accff5a9058b45de3eadbaecc51df665a1b160fa238247672f09"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProblemsInLanguage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"3"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"problems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"translation"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"language"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"statement"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ProblemsInLanguageQuery, ProblemsInLanguageQueryVariables>;
export const ProblemsInReadersLanguageDocument = {"__meta__":{"hash":"c41ead30ad437ddc69c59fbd3fc876bcc17843af2f96a18712f5f34df7406d37"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProblemsInReadersLanguage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"3"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"problems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"translation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"language"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"statement"}},{"kind":"Field","name":{"kind":"Name","value":"provenance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"sourceLanguage"}},{"kind":"Field","name":{"kind":"Name","value":"madeAt"}},{"kind":"Field","name":{"kind":"Name","value":"stale"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ProblemsInReadersLanguageQuery, ProblemsInReadersLanguageQueryVariables>;
export const ProblemsPageDocument = {"__meta__":{"hash":"a61b27eecce7e6059078784486cdf388cec730a98305041480df9a4b3d29a646"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ProblemsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}},"defaultValue":{"kind":"IntValue","value":"5"}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ProblemFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sort"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ProblemSort"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"problems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"sort"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sort"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"rating"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}},{"kind":"Field","name":{"kind":"Name","value":"statistics"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"acceptanceRate"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<ProblemsPageQuery, ProblemsPageQueryVariables>;
export const TranslateTextDocument = {"__meta__":{"hash":"a19c17660f1d28f627a185f094b981865c7c30e2e905bea03a710a3a7ca87190"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TranslateText"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"text"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"translation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"translate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"text"},"value":{"kind":"Variable","name":{"kind":"Name","value":"text"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"text"}},{"kind":"Field","name":{"kind":"Name","value":"detectedLanguage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TranslateTextQuery, TranslateTextQueryVariables>;
export const TranslationLanguagesDocument = {"__meta__":{"hash":"3f98c067510cf5289110bd309da0a5430806c9c54876cf9a97bc95f834199df1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TranslationLanguages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"translation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"languages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"targets"}}]}}]}}]}}]} as unknown as DocumentNode<TranslationLanguagesQuery, TranslationLanguagesQueryVariables>;