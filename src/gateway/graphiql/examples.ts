/**
 * The operations GraphiQL opens with, one tab each (the tab is titled by the operation's name). The
 * first is the cross-source query; the others are the README's examples.
 */
export interface GraphiQLExample {
  /** The operation's name, which GraphiQL shows as the tab's title. */
  name: string;
  query: string;
}

export const crossSourceExample: GraphiQLExample = {
  name: 'ProblemsInYourLanguage',
  query: `# One query, two services: problems from the
# problems service, each with its \`translation\` from
# the translation service (one batched call per page).
#
# Run it with the ▶ button or Ctrl-Enter. For another
# language, change "es" below or set Variables to
# {"language": "fr"}. More examples in the other tabs.
query ProblemsInYourLanguage($language: String! = "es") {
  problems(first: 3) {
    totalCount
    nodes {
      id
      title
      translation(to: $language) {
        language
        title
        statement
      }
    }
  }
}
`,
};

export const problemsOnlyExample: GraphiQLExample = {
  name: 'ProblemsOnly',
  query: `# The problems service alone: filters, sorting and cursor pagination.
query ProblemsOnly {
  problems(first: 5, filter: { difficulty: [EASY], tags: ["greedy"] }, sort: { field: RATING }) {
    totalCount
    nodes { id title rating tags statistics { acceptanceRate } }
    pageInfo { hasNextPage endCursor }
  }
}
`,
};

export const translationOnlyExample: GraphiQLExample = {
  name: 'TranslationOnly',
  query: `# The translation service alone, under the \`translation\` namespace.
query TranslationOnly {
  translation {
    languages { code name targets }
    translate(text: "Find the shortest path.", to: "es") { text detectedLanguage { code confidence } }
    translateMany(texts: ["Print the answer.", "Each test case"], to: "fr", from: "en") { text }
    detect(text: "Dado un arreglo de enteros") { code confidence }
  }
}
`,
};

export const linkExample: GraphiQLExample = {
  name: 'TheLink',
  query: `# The link: Problem.translation(to:, from:) gives a problem's title and statement
# in the reader's language.
query TheLink {
  problems(first: 3) {
    nodes {
      id
      title
      translation(to: "es") { language title statement }
    }
  }
}
`,
};

/** In tab order: the cross-source query first (the tab the page opens on). */
export const graphiqlExamples: GraphiQLExample[] = [crossSourceExample, problemsOnlyExample, translationOnlyExample, linkExample];
