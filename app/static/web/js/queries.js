// Every GraphQL operation the page sends, in one place.

const ENTITY = `id name type`;

const RELATIONSHIP = `kind predicate source target weight validFrom validTo invalidatedAt
  evidence { documentId span { start end } sentence document { title externalId } }`;

const PATH = `length weight entities { ${ENTITY} }
  steps { from { ${ENTITY} } to { ${ENTITY} } relationship { ${RELATIONSHIP} } }`;

const SOURCE = `ref score cited discoveryMethods span { documentId unit start end }
  document { id title path } relationshipPath { ${PATH} }`;

const QUOTE = `ref text verified span { documentId unit start end }`;

const ANSWER = `text language direction abstained abstainReason degraded missingLegs
  brief { answer shortAnswer confidence settled gaps
    support { ${QUOTE} } context { ${QUOTE} } otherSide { ${QUOTE} } }
  claims { text refs status reason repairedCitation }
  usage { model promptTokens completionTokens passagesRead timeToFirstDeltaMs latencyMs }
  verification { policy quotesChecked quotesVerified claimsChecked claimsSupported
    claimsCaveated claimsRemoved }`;

const EVENTS = `__typename
    ... on AnswerSources { sources { ${SOURCE} } queryUsed degraded missingLegs }
    ... on AnswerDelta { text }
    ... on AnswerClaim { text refs status reason repairedCitation }
    ... on AnswerDone { answer { ${ANSWER} } }`;

export const ANSWER_STREAM = `subscription($input: AnswerInput!) {
  stream: answerStream(input: $input) { ${EVENTS} }
}`;

// The same events about one document, read whole with no search.
export const DOCUMENT_ANSWER_STREAM = `subscription($input: DocumentAnswerInput!) {
  stream: documentAnswerStream(input: $input) { ${EVENTS} }
}`;

export const DOCUMENT = `query($id: ID!) { document(id: $id) { id title externalId contentType } }`;

export const ANSWER_OPTIONS = `{ answerModels { name provider default }
  answerEfforts { name budgetSeconds } }`;

export const READ_SPANS = `query($spans: [SpanInput!]!) {
  readSpans(spans: $spans) { start end text truncated }
}`;

export const SEARCH = `query($input: SearchInput!) {
  search(input: $input) {
    degraded missingLegs graphPending
    hits { rank score section chunkText discoveryMethods
      document { id title path } spans { unit start end } highlights { start end }
      relationshipPath { ${PATH} } }
  }
}`;

export const ENTITIES = `query($collection: String!, $query: String!) {
  entities(collection: $collection, query: $query, first: 10) {
    score entity { ${ENTITY} mentionCount }
  }
}`;

export const ENTITY_PAGE = `query($id: ID!) {
  entity(id: $id) { ${ENTITY} aliases mentionCount
    documents(first: 10) { edges { node { id title externalId } } } }
}`;

export const NEIGHBORHOOD = `query($id: ID!, $hops: Int!, $asOf: DateTime) {
  neighborhood(entity: $id, hops: $hops, asOf: $asOf, first: 40) {
    truncated center { ${ENTITY} }
    nodes { hops entity { ${ENTITY} } }
    edges { ${RELATIONSHIP} }
  }
}`;

export const PATHS = `query($from: ID!, $to: ID!, $asOf: DateTime) {
  paths(from: $from, to: $to, asOf: $asOf, first: 5) { truncated paths { ${PATH} } }
}`;

export const TIMELINE = `query($id: ID!) {
  timeline(entity: $id, first: 50) {
    facts { invalidated replacedBy subject { ${ENTITY} } object { ${ENTITY} }
      relationship { ${RELATIONSHIP} } }
  }
}`;

export const DOCUMENTS = `query($collection: String!, $after: String) {
  documents(collection: $collection, first: 20, after: $after) {
    edges { node { id title externalId contentType status chunkCount updatedAt graphNotes } }
    pageInfo { hasNextPage endCursor }
  }
}`;

export const CREATE_COLLECTION = `mutation($name: String!) { createCollection(name: $name) { name } }`;

export const INGEST = `mutation($collection: String!, $documents: [DocumentInput!]!) {
  ingestDocuments(collection: $collection, documents: $documents) {
    job { id total }
    outcomes { index externalId status code message }
  }
}`;

export const INGEST_PROGRESS = `subscription($jobId: ID!) {
  ingestProgress(jobId: $jobId) {
    total done indexed unchanged failed chunks graphed graphFailed bytes bytesDone final
  }
}`;

export const JOB_OUTCOMES = `query($id: ID!) {
  job(id: $id) { outcomes { index externalId status code message } }
}`;

export const THEMES = `query($collection: String!) {
  themes(collection: $collection, first: 6) {
    stale themesUpdatedAt
    themes { id label size
      entities { entity { ${ENTITY} } }
      facts { subject { ${ENTITY} } predicate object { ${ENTITY} } support }
      chunks { documentId title span { start end } excerpt } }
  }
}`;

export const START_RESEARCH = `mutation($input: ResearchInput!) {
  startResearch(input: $input) { id status }
}`;

export const CANCEL_RESEARCH = `mutation($id: ID!) { cancelResearch(id: $id) { status } }`;

export const RESEARCH_EVENTS = `subscription($id: ID!) {
  researchEvents(id: $id) {
    __typename
    ... on ResearchProgress { step { number kind message passagesRead } }
    ... on ResearchUpdated { afterStep brief { shortAnswer } }
    ... on ResearchDone { run { status reason answer { ${ANSWER} sources { ${SOURCE} } } } }
  }
}`;
