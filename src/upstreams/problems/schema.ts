/**
 * The public schema of the problems service. The gateway learns it by introspection, so every type,
 * field and argument carries a description.
 */
import { MAX_PAGE_SIZE } from './pagination.ts';

export const typeDefs = /* GraphQL */ `
  """
  Entry point of the problems service: problems, contests, contestants and the judge's languages.
  """
  type Query {
    """
    One problem, looked up by exactly one of \`id\` or \`slug\`. Null when no problem matches.
    Passing neither or both is an error.
    """
    problem(
      "Problem id, e.g. \`p1001\`."
      id: ID
      "URL-friendly name, e.g. \`balanced-brackets\`."
      slug: String
    ): Problem
    """
    Problems as a cursor connection, filtered and sorted. Without \`sort\` the order is by id.
    """
    problems(
      "How many problems to return, from 0 up to ${MAX_PAGE_SIZE}."
      first: Int = 20
      "Return problems after this cursor (an \`endCursor\` or an edge's \`cursor\` from the same list)."
      after: String
      "Keep only problems that match every given condition."
      filter: ProblemFilter
      "Order of the list; ties are broken by id, ascending."
      sort: ProblemSort
    ): ProblemConnection!
    """
    One contest, looked up by exactly one of \`id\` or \`slug\`. Null when no contest matches.
    Passing neither or both is an error.
    """
    contest(
      "Contest id, e.g. \`c101\`."
      id: ID
      "URL-friendly name, e.g. \`round-871-div-2\`."
      slug: String
    ): Contest
    "Contests as a cursor connection, oldest first."
    contests(
      "How many contests to return, from 0 up to ${MAX_PAGE_SIZE}."
      first: Int = 20
      "Return contests after this cursor."
      after: String
    ): ContestConnection!
    "One contestant by handle (case-sensitive). Null when there is no such user."
    user(
      "The user's handle, e.g. \`quiet_fox\`."
      handle: String!
    ): User
    "Contestants as a cursor connection, highest rating first (ties by handle)."
    users(
      "How many users to return, from 0 up to ${MAX_PAGE_SIZE}."
      first: Int = 20
      "Return users after this cursor."
      after: String
    ): UserConnection!
    "Programming languages the judge accepts for submissions."
    languages: [Language!]!
    "Every tag a problem can have, sorted alphabetically."
    tags: [String!]!
  }

  "How hard a problem is, derived from its rating: EASY below 1400, MEDIUM below 2100, HARD from 2100."
  enum Difficulty {
    "Rating below 1400."
    EASY
    "Rating from 1400 to 2099."
    MEDIUM
    "Rating 2100 and above."
    HARD
  }

  "A competitive-programming problem."
  type Problem {
    "Stable id, e.g. \`p1001\`."
    id: ID!
    "URL-friendly unique name derived from the title."
    slug: String!
    "Short English title."
    title: String!
    """
    Full statement in Markdown with LaTeX math (\`$...$\` inline, \`$$...$$\` display): the story, then
    \`## Input\`, \`## Output\`, \`## Constraints\` and \`## Examples\` sections, and sometimes \`## Note\`.
    """
    statement: String!
    "Difficulty band of the rating."
    difficulty: Difficulty!
    "Difficulty rating, from 800 to 3500."
    rating: Int!
    "Topics of the problem, from the fixed set in \`Query.tags\`, sorted."
    tags: [String!]!
    "Sample tests shown in the statement, in order."
    examples: [Example!]!
    "Time and memory limits and the constraints on the input."
    constraints: Constraints!
    "The contest where the problem first appeared, if any."
    contest: Contest
    "Submission statistics of the judge."
    statistics: ProblemStatistics!
  }

  "A sample test of a problem."
  type Example {
    "Exact text given to the program on standard input."
    input: String!
    "Expected text on standard output."
    output: String!
    "Why the output is right, when the statement explains it."
    explanation: String
  }

  "Limits a solution must fit in, and the constraints on the input."
  type Constraints {
    "Time limit per test, in milliseconds."
    timeLimitMs: Int!
    "Memory limit, in megabytes."
    memoryLimitMb: Int!
    "The constraints on the input as a Markdown list with LaTeX math."
    text: String!
  }

  "Submission statistics of one problem."
  type ProblemStatistics {
    "All submissions ever judged."
    submissions: Int!
    "Submissions that passed all tests."
    accepted: Int!
    "accepted / submissions, rounded to 4 decimals."
    acceptanceRate: Float!
    "Different users with at least one accepted submission; never more than \`accepted\`."
    solvers: Int!
  }

  "A contest: a timed set of problems."
  type Contest {
    "Stable id, e.g. \`c101\`."
    id: ID!
    "URL-friendly unique name derived from the title."
    slug: String!
    "Title, e.g. \`Round 871 (Div. 2)\`."
    title: String!
    "Start time, ISO 8601 in UTC."
    startsAt: String!
    "End time, ISO 8601 in UTC."
    endsAt: String!
    "Length of the contest in minutes."
    durationMinutes: Int!
    "Ids of the contest's problems, easiest first."
    problemIds: [ID!]!
    "The contest's problems, easiest first."
    problems: [Problem!]!
  }

  "A contestant."
  type User {
    "Unique login name."
    handle: String!
    "Full name."
    name: String!
    "Country, in English."
    country: String!
    "Current rating."
    rating: Int!
    "Highest rating after any contest."
    maxRating: Int!
    "Problems of this judge the user has solved, by difficulty."
    solvedCount: SolvedCount!
    "Rating after each rated contest, oldest first."
    ratingHistory: [RatingChange!]!
  }

  "Numbers of solved problems by difficulty."
  type SolvedCount {
    "Solved EASY problems."
    easy: Int!
    "Solved MEDIUM problems."
    medium: Int!
    "Solved HARD problems."
    hard: Int!
    "All solved problems: easy + medium + hard."
    total: Int!
  }

  "The result of one rated contest for one user."
  type RatingChange {
    "Id of the contest."
    contestId: ID!
    "The contest."
    contest: Contest!
    "Rating after the contest."
    rating: Int!
    "Place in the contest standings, 1 is best."
    rank: Int!
    "When the contest ended, ISO 8601 in UTC."
    at: String!
  }

  "A programming language the judge accepts."
  type Language {
    "Id to use when submitting, e.g. \`cpp17\`."
    id: ID!
    "Display name, e.g. \`C++17\`."
    name: String!
    "Compiler or interpreter and its version."
    version: String!
    "File name extensions of source files, with the dot."
    extensions: [String!]!
  }

  "Conditions a problem must meet to be listed; all given conditions must hold."
  input ProblemFilter {
    "Keep problems with any of these difficulties."
    difficulty: [Difficulty!]
    "Keep problems that have all of these tags."
    tags: [String!]
    "Keep problems with rating at least this."
    ratingMin: Int
    "Keep problems with rating at most this."
    ratingMax: Int
    "Keep problems whose title or statement contains this text, ignoring case."
    search: String
  }

  "Fields problems can be sorted by."
  enum ProblemSortField {
    "Problem id (the order of publication)."
    ID
    "Difficulty rating."
    RATING
    "Title, alphabetically."
    TITLE
    "Share of accepted submissions."
    ACCEPTANCE_RATE
    "Number of submissions."
    SUBMISSIONS
  }

  "Sort direction."
  enum SortDirection {
    "Smallest first."
    ASC
    "Largest first."
    DESC
  }

  "How to order problems."
  input ProblemSort {
    "Field to sort by."
    field: ProblemSortField!
    "Direction of the sort."
    direction: SortDirection = ASC
  }

  "Where a page of a connection starts and ends, and whether there is more."
  type PageInfo {
    "True when more items follow this page."
    hasNextPage: Boolean!
    "True when items come before this page."
    hasPreviousPage: Boolean!
    "Cursor of the first item of the page; null on an empty page."
    startCursor: String
    "Cursor of the last item of the page; pass it as \`after\` to get the next page. Null on an empty page."
    endCursor: String
  }

  "A page of problems."
  type ProblemConnection {
    "The problems of the page with their cursors."
    edges: [ProblemEdge!]!
    "The problems of the page."
    nodes: [Problem!]!
    "Position of the page in the whole list."
    pageInfo: PageInfo!
    "Number of problems in the whole filtered list, not only this page."
    totalCount: Int!
  }

  "A problem in a page, with its cursor."
  type ProblemEdge {
    "Opaque position of this problem in the list."
    cursor: String!
    "The problem."
    node: Problem!
  }

  "A page of contests."
  type ContestConnection {
    "The contests of the page with their cursors."
    edges: [ContestEdge!]!
    "The contests of the page."
    nodes: [Contest!]!
    "Position of the page in the whole list."
    pageInfo: PageInfo!
    "Number of contests in the whole list."
    totalCount: Int!
  }

  "A contest in a page, with its cursor."
  type ContestEdge {
    "Opaque position of this contest in the list."
    cursor: String!
    "The contest."
    node: Contest!
  }

  "A page of users."
  type UserConnection {
    "The users of the page with their cursors."
    edges: [UserEdge!]!
    "The users of the page."
    nodes: [User!]!
    "Position of the page in the whole list."
    pageInfo: PageInfo!
    "Number of users in the whole list."
    totalCount: Int!
  }

  "A user in a page, with its cursor."
  type UserEdge {
    "Opaque position of this user in the list."
    cursor: String!
    "The user."
    node: User!
  }
`;
