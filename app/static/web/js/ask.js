// Ask: a question over the chosen collections, answered over answerStream, or about one
// document read whole (#/ask/document/<id>, documentAnswerStream). Sources show first, then
// the verified text with each [[SRC:n]] marker as a link to its span, then the brief, the
// claims the verifier changed, and the usage. Follow-ups carry the history.

import { $, badge, bdi, h, replace } from "./dom.js";
import { abstentionBox, errorBox } from "./errors.js";
import { pathChain } from "./paths.js";
import {
  ANSWER_OPTIONS,
  ANSWER_STREAM,
  CANCEL_RESEARCH,
  DOCUMENT,
  DOCUMENT_ANSWER_STREAM,
  RESEARCH_EVENTS,
  START_RESEARCH,
} from "./queries.js";
import { documentTitle, methodBadges, openSpan } from "./reader.js";

const MARKER = /\[\[(SRC:\d{4})\]\]/g;
const PARTIAL_MARKER = /\[\[[^\]]*$/;
const HISTORY_MESSAGES = 10;

// Kept across views, so a person can look something up and come back to the thread.
const conversation = { turns: [], history: [] };
// Measured by the page for the browser test and bench/web.py: ms from submit.
window.trellisTimings = [];

export function mount(session, root, [kind, id]) {
  const target = { document: kind === "document" ? id : null };
  if (conversation.document !== target.document) newConversation();
  conversation.document = target.document;
  const thread = h("div", { id: "thread" }, conversation.turns.map((turn) => turn.element));
  const form = askForm(session, thread);
  const heading = h("h1", {}, "Ask");
  replace(root, h("section", { class: "ask" }, heading, thread, form));
  if (target.document) showDocument(session, heading, target.document);
  if (session.can("answer")) loadOptions(session, form);
  let stop = null;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    stop = ask(session, form, thread, target);
  });
  // Enter asks; Shift+Enter starts a new line.
  $("#question", form).addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  return () => stop && stop();
}

async function showDocument(session, heading, id) {
  try {
    const { document } = await session.api.query(DOCUMENT, { id });
    replace(heading, "Ask about ", bdi(documentTitle(document)));
    heading.after(h("p", { class: "hint" }, "The whole document is read, with no search. ", h("a", { href: "#/ask" }, "Ask the collections instead")));
  } catch (error) {
    heading.after(errorBox(error));
  }
}

function askForm(session, thread) {
  const allowed = session.can("answer");
  return h(
    "form",
    { id: "ask-form", class: "ask-form" },
    h("textarea", { id: "question", name: "question", rows: "2", dir: "auto", required: true, placeholder: "Ask a question about the chosen collections", disabled: !allowed }),
    h(
      "div",
      { class: "row" },
      h("label", {}, "Effort ", h("select", { id: "effort", disabled: !allowed }, h("option", { value: "MEDIUM" }, "medium"), h("option", { value: "HIGH" }, "high"), h("option", { value: "RESEARCH", title: "A research run: retrieval in rounds, in the background" }, "research run"))),
      h("label", {}, "Model ", h("select", { id: "model", disabled: !allowed })),
      h("button", { type: "submit", id: "ask-button", disabled: !allowed, title: allowed ? "" : session.reason("answer") }, "Ask"),
      h("button", { type: "button", class: "secondary", onclick: () => newConversation(thread) }, "New conversation"),
    ),
    allowed ? null : h("p", { class: "denied", role: "note" }, session.reason("answer")),
  );
}

async function loadOptions(session, form) {
  try {
    const { answerModels, answerEfforts } = await session.api.query(ANSWER_OPTIONS);
    replace($("#model", form), answerModels.map((m) => h("option", { value: m.name, selected: m.default }, m.name)));
    for (const option of $("#effort", form).options) {
      const effort = answerEfforts.find((e) => e.name === option.value);
      if (effort) option.textContent = `${option.value.toLowerCase()} (up to ${effort.budgetSeconds} s)`;
    }
  } catch (error) {
    form.append(errorBox(error));
  }
}

function newConversation(thread = null) {
  conversation.turns = [];
  conversation.history = [];
  if (thread) replace(thread);
}

function ask(session, form, thread, target) {
  const query = $("#question", form).value.trim();
  if (!query) return null;
  if (!target.document && !session.chosen.size) {
    thread.append(errorBox({ code: "BAD_USER_INPUT", message: "Choose at least one collection at the top of the page." }));
    return null;
  }
  const common = { query, history: conversation.history.slice(-HISTORY_MESSAGES), model: $("#model", form).value || null, sources: "ALL" };
  $("#question", form).value = "";
  const turn = new Turn(session, query);
  conversation.turns.push(turn);
  thread.append(turn.element);
  turn.element.scrollIntoView({ block: "end" });
  if (target.document) return session.api.subscribe(DOCUMENT_ANSWER_STREAM, { input: { ...common, document: target.document } }, turn.handlers());
  const effort = $("#effort", form).value;
  const input = { ...common, collections: [...session.chosen] };
  if (effort === "RESEARCH") return research(session, input, turn);
  return session.api.subscribe(ANSWER_STREAM, { input: { ...input, effort } }, turn.handlers());
}

// A research run: started at once, followed over researchEvents step by step, and shown as
// an answer when it is done. Returns what stops following it (the run goes on).
function research(session, input, turn) {
  let stop = null;
  session.api.query(START_RESEARCH, { input }).then(
    ({ startResearch }) => {
      turn.following(startResearch.id, () => session.api.query(CANCEL_RESEARCH, { id: startResearch.id }));
      stop = session.api.subscribe(RESEARCH_EVENTS, { id: startResearch.id }, turn.researchHandlers());
    },
    (error) => turn.handlers().error(error),
  );
  return () => stop && stop();
}

class Turn {
  constructor(session, query) {
    this.session = session;
    this.query = query;
    this.text = "";
    this.sources = new Map();
    this.quotes = [];
    this.timing = { started: performance.now() };
    window.trellisTimings.push(this.timing);
    this.parts = {
      status: h("p", { class: "status" }, "Searching…"),
      sources: h("ol", { class: "sources" }),
      text: h("div", { class: "answer-text", dir: "auto" }),
      claims: h("ul", { class: "claims" }),
      brief: h("div", { class: "brief" }),
      usage: h("p", { class: "usage" }),
    };
    this.element = h(
      "article",
      { class: "turn" },
      h("p", { class: "question", dir: "auto" }, bdi(query)),
      h("div", { class: "answer" }, this.parts.status, this.parts.text, this.parts.claims, this.parts.brief, h("details", { class: "sources-box", open: true }, h("summary", {}, "Sources"), this.parts.sources), this.parts.usage),
    );
  }

  handlers(next = (data) => this.#event(data.stream)) {
    return { next, error: (error) => this.#failed(error), done: () => {} };
  }

  following(id, cancel) {
    this.steps = h("ol", { class: "steps" });
    this.cancel = h("button", { type: "button", class: "secondary", onclick: () => cancel().catch((error) => this.#failed(error)) }, "Cancel run");
    this.researchBox = h("div", { class: "research", dataset: { run: id } }, h("p", {}, "Research run queued… ", this.cancel), this.steps);
    replace(this.parts.status, this.researchBox);
  }

  researchHandlers() {
    return this.handlers((data) => this.#researchEvent(data.researchEvents));
  }

  #researchEvent(event) {
    if (event.__typename === "ResearchProgress") {
      const step = event.step;
      this.steps.append(h("li", { class: "step", dataset: { kind: step.kind } }, `${step.kind.toLowerCase()}: `, step.message, h("span", { class: "hint" }, ` (${step.passagesRead} passages read)`)));
    } else if (event.__typename === "ResearchUpdated" && event.brief.shortAnswer) {
      replace(this.parts.text, h("span", { class: "draft" }, "Draft: ", bdi(event.brief.shortAnswer)));
    } else if (event.__typename === "ResearchDone") {
      this.#researchDone(event.run);
    }
  }

  #researchDone(run) {
    const ended = `Research run ${run.status.toLowerCase()}${run.reason ? `: ${run.reason}` : ""}.`;
    replace(this.researchBox.firstChild, h("span", { class: "run-status", dataset: { status: run.status } }, ended));
    if (!run.answer) return;
    this.#showSources({ sources: run.answer.sources, degraded: run.answer.degraded, missingLegs: run.answer.missingLegs });
    this.#done(run.answer);
    this.parts.status.prepend(this.researchBox);
  }

  #event(event) {
    const on = {
      AnswerSources: () => this.#showSources(event),
      AnswerDelta: () => this.#addText(event.text),
      AnswerClaim: () => this.parts.claims.append(claimItem(event)),
      AnswerDone: () => this.#done(event.answer),
    }[event.__typename];
    if (on) on();
  }

  #showSources(event) {
    this.timing.sourcesReceived = performance.now() - this.timing.started;
    event.sources.forEach((source, index) => this.sources.set(source.ref, { ...source, number: index + 1 }));
    replace(this.parts.sources, [...this.sources.values()].map((source) => this.#sourceItem(source)));
    replace(this.parts.status, event.degraded ? `Reading… (degraded: ${event.missingLegs.join(", ")} unavailable)` : "Reading…");
    requestAnimationFrame(() => (this.timing.sourcesShown = performance.now() - this.timing.started));
  }

  #sourceItem(source) {
    const title = documentTitle(source.document);
    return h(
      "li",
      { id: `source-${source.ref.replace(":", "-")}`, class: source.cited ? "source cited" : "source", dataset: { ref: source.ref } },
      h("button", { class: "link source-title", onclick: () => this.#open(source) }, bdi(title)),
      " ",
      methodBadges(source.discoveryMethods),
      source.relationshipPath ? pathChain(this.session, source.relationshipPath) : null,
    );
  }

  // A citation opens the words its source was quoted for, where the brief quotes it, inside
  // the passage; otherwise the passage.
  #open(source, note = null) {
    const quote = this.quotes.find((q) => q.ref === source.ref && q.verified);
    const title = documentTitle(source.document);
    if (quote) openSpan(this.session, quote.span, title, note, source.span);
    else if (source.span) openSpan(this.session, source.span, title, note);
  }

  #addText(delta) {
    if (this.timing.firstText === undefined) this.timing.firstText = performance.now() - this.timing.started;
    this.text += delta;
    this.#renderText(this.text.replace(PARTIAL_MARKER, ""));
  }

  #renderText(text) {
    const pieces = [];
    let last = 0;
    for (const match of text.matchAll(MARKER)) {
      pieces.push(bdi(text.slice(last, match.index)), this.#citation(match[1]));
      last = match.index + match[0].length;
    }
    pieces.push(bdi(text.slice(last)));
    replace(this.parts.text, pieces);
  }

  #citation(ref) {
    const source = this.sources.get(ref);
    if (!source) return badge(`[${ref}]`, "unknown-ref");
    const onclick = (event) => {
      event.preventDefault();
      this.#open(source);
    };
    return h("a", { href: "#", class: "citation", dataset: { ref }, title: documentTitle(source.document), onclick }, `[${source.number}]`);
  }

  #done(answer) {
    this.timing.done = performance.now() - this.timing.started;
    this.parts.text.setAttribute("dir", answer.direction.toLowerCase());
    this.parts.text.lang = answer.language;
    this.#renderText(answer.text);
    replace(this.parts.status, answer.abstained ? abstentionBox(answer.abstainReason) : "");
    this.quotes = [...answer.brief.support, ...answer.brief.context, ...answer.brief.otherSide];
    replace(this.parts.brief, briefView(answer.brief, (quote, note) => this.#openQuote(quote, note)));
    replace(this.parts.usage, usageLine(answer));
    conversation.history.push({ role: "USER", content: this.query }, { role: "ASSISTANT", content: answer.text });
  }

  #openQuote(quote, note) {
    const source = this.sources.get(quote.ref);
    const title = source ? documentTitle(source.document) : quote.ref;
    openSpan(this.session, quote.span, title, note, source && source.span);
  }

  #failed(error) {
    replace(this.parts.status, errorBox(error));
  }
}

function claimItem(claim) {
  if (claim.status === "SUPPORTED") return repairedItem(claim);
  const label = claim.status === "REMOVED" ? "Removed" : "Caveated";
  return h("li", { class: `claim ${claim.status.toLowerCase()}` }, badge(label, claim.status.toLowerCase()), " ", h("span", { dir: "auto" }, bdi(claim.text)), claim.reason ? h("span", { class: "hint" }, ` (${claim.reason})`) : null);
}

// A claim the model left uncited (or cited wrongly), cited by verification to the source
// that supports it.
function repairedItem(claim) {
  return h("li", { class: "claim repaired" }, badge("Citation repaired", "ok"), " ", h("span", { dir: "auto" }, bdi(claim.text.replace(MARKER, "").trim())));
}

function briefView(brief, openQuote) {
  const short = brief.shortAnswer ? h("p", { class: "short-answer" }, "Short answer: ", h("strong", { dir: "auto" }, bdi(brief.shortAnswer)), confidence(brief.confidence)) : null;
  return h(
    "div",
    {},
    short,
    h("p", { class: brief.settled ? "settled" : "unsettled" }, brief.settled ? "Settled" : "Not settled"),
    quoteList("Support", brief.support, openQuote),
    quoteList("Context", brief.context, openQuote),
    quoteList("The other side", brief.otherSide, openQuote),
    brief.gaps.length ? h("div", { class: "gaps" }, h("h3", {}, "Gaps"), h("ul", {}, brief.gaps.map((gap) => h("li", { dir: "auto" }, bdi(gap))))) : null,
  );
}

function confidence(value) {
  return value === null || value === undefined ? null : h("span", { class: "hint" }, ` (confidence ${Math.round(value * 100)}%)`);
}

function quoteList(title, quotes, openQuote) {
  if (!quotes.length) return null;
  return h("div", { class: "quotes" }, h("h3", {}, title), h("ul", {}, quotes.map((quote) => quoteItem(quote, openQuote))));
}

function quoteItem(quote, openQuote) {
  const note = quote.verified ? null : "This quote failed verification: these words were not found in the source.";
  return h(
    "li",
    { class: quote.verified ? "quote verified" : "quote unverified" },
    h("button", { class: "link", onclick: () => openQuote(quote, note) }, h("q", { dir: "auto" }, bdi(quote.text))),
    quote.verified ? badge("verified", "ok") : badge("not verified", "warn"),
  );
}

function usageLine(answer) {
  const usage = answer.usage;
  const v = answer.verification;
  const parts = [
    `${usage.model}`,
    `${usage.passagesRead} passages read`,
    `${usage.promptTokens + usage.completionTokens} tokens`,
    `${Math.round(usage.latencyMs)} ms`,
    `quotes verified ${v.quotesVerified}/${v.quotesChecked}`,
    `claims supported ${v.claimsSupported}/${v.claimsChecked}`,
  ];
  return parts.join(" · ");
}
