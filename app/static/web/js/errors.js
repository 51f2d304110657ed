// The API's errors in words. The API's message is already a sentence; the code picks the
// heading and, where the user can act, what to do next.

import { h } from "./dom.js";

const HEADINGS = {
  UNAUTHENTICATED: "This key was not accepted",
  FORBIDDEN: "This key may not do that",
  RATE_LIMITED: "Too many requests",
  ALLOWANCE_EXCEEDED: "The plan's allowance is used up",
  INSUFFICIENT_BALANCE: "Not enough credit",
  PLAN_UPGRADE_REQUIRED: "The plan does not include this",
  NOT_FOUND: "Not found",
  ALREADY_EXISTS: "Already exists",
  BAD_USER_INPUT: "Please check the input",
  DOCUMENT_TOO_LONG: "The document is too long to read whole",
  PROVIDER_NOT_CONFIGURED: "No model is configured for this",
  PROVIDER_UNAVAILABLE: "The model provider did not answer",
  ANSWER_TIMEOUT: "The answer took too long",
  TIMEOUT: "That took too long",
  OVERLOADED: "Trellis is busy",
  SERVICE_UNAVAILABLE: "A database is not answering",
  QUERY_TOO_COSTLY: "That request asks for too much at once",
  PAYLOAD_TOO_LARGE: "That upload is too large for one request",
  BODY_TOO_LARGE: "That upload is too large for one request",
  NETWORK: "Trellis could not be reached",
};

const NEXT_STEPS = {
  UNAUTHENTICATED: "Paste a valid API key at the top of the page.",
  RATE_LIMITED: "Wait a moment and try again.",
  OVERLOADED: "Wait a moment and try again.",
  NETWORK: "Check that `trellis run` is still serving.",
};

export function describe(error) {
  const code = error.code || "INTERNAL_ERROR";
  const field = error.extensions && error.extensions.field;
  const heading = HEADINGS[code] || "Something went wrong";
  const message = field ? `${field}: ${error.message}` : error.message;
  return { code, heading, message, next: NEXT_STEPS[code] || "" };
}

export function errorBox(error) {
  const { code, heading, message, next } = describe(error);
  return h(
    "div",
    { class: "error", role: "alert", dataset: { code } },
    h("strong", {}, heading),
    h("p", {}, message),
    next ? h("p", { class: "hint" }, next) : null,
  );
}

const ABSTENTIONS = {
  NO_CONTEXT: "no passage in the chosen collections answers this question.",
  UNSUPPORTED_CLAIM: "the answer it drafted could not be verified against its sources, so it was withheld.",
};

// Why an answer abstained, in words; the API's reason code stays in the element's data.
export function abstentionBox(reason) {
  const words = ABSTENTIONS[reason] || "the sources do not support an answer.";
  return h("p", { class: "abstained", dataset: { reason: reason || "" } }, "Trellis did not answer: ", words);
}
