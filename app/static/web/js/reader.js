// The side panel: a source's text with the exact span marked, or an edge's evidence.

import { $, badge, bdi, h, replace } from "./dom.js";
import { errorBox } from "./errors.js";
import { READ_SPANS } from "./queries.js";

// Opens `span` of a document in the panel, marked; `passage`, when given, is the passage
// around it, shaded. `note` says why it is shown, e.g. a quote that failed verification.
export async function openSpan(session, span, title, note = null, passage = null) {
  const panel = showPanel(title, note, h("p", { class: "hint" }, "Reading…"));
  try {
    const body = await readAround(session, span, passage);
    replace($(".panel-body", panel), body);
    const mark = $("mark", panel);
    if (mark) mark.scrollIntoView({ block: "center" });
  } catch (error) {
    replace($(".panel-body", panel), errorBox(error));
  }
}

// The whole text for a character span, so the span is seen in place; the span alone
// when the document is past what one read returns, or is paged.
async function readAround(session, span, passage) {
  if (span.unit !== "CHARS") return h("div", { class: "text", dir: "auto" }, await read(session, span));
  const [whole] = await readSpans(session, [{ ...span, unit: "FILE", start: 0, end: 0 }]);
  if (whole.text.length < span.end) {
    return h("div", { class: "text", dir: "auto" }, h("mark", {}, await read(session, span)));
  }
  const outer = encloses(passage, span) ? passage : span;
  const inner = [whole.text.slice(outer.start, span.start), h("mark", {}, whole.text.slice(span.start, span.end)), whole.text.slice(span.end, outer.end)];
  return h("div", { class: "text", dir: "auto" }, whole.text.slice(0, outer.start), h("span", { class: "passage" }, inner), whole.text.slice(outer.end));
}

function encloses(passage, span) {
  return Boolean(passage) && passage.documentId === span.documentId && passage.unit === "CHARS" && passage.start <= span.start && span.end <= passage.end;
}

async function read(session, span) {
  const [found] = await readSpans(session, [span]);
  return found.text;
}

async function readSpans(session, spans) {
  const request = spans.map(({ documentId, unit, start, end }) => ({ documentId, unit, start, end }));
  return (await session.api.query(READ_SPANS, { spans: request })).readSpans;
}

// An edge's evidence: each sentence that states it, with its document.
export function openEvidence(session, relationship, names) {
  const label = relationshipLabel(relationship);
  const items = relationship.evidence.map((evidence) => evidenceItem(session, evidence));
  const dates = [relationship.validFrom, relationship.validTo].filter(Boolean).join(" – ");
  showPanel(
    `${names.source} ${label} ${names.target}`,
    dates ? `valid ${dates}` : null,
    h("ul", { class: "evidence" }, items.length ? items : h("li", {}, "No evidence recorded.")),
  );
}

function evidenceItem(session, evidence) {
  const title = evidence.document ? documentTitle(evidence.document) : "a deleted document";
  const open = evidence.span
    ? h("button", { class: "link", onclick: () => openSpan(session, spanOf(evidence), title) }, "open in document")
    : null;
  const said = evidence.sentence ? h("q", { dir: "auto" }, evidence.sentence) : h("span", { class: "hint" }, "Both named in");
  return h("li", { class: "evidence-item" }, said, " ", h("cite", {}, bdi(title)), " ", open);
}

function spanOf(evidence) {
  return { documentId: evidence.documentId, unit: "CHARS", start: evidence.span.start, end: evidence.span.end };
}

// What a document is called on screen: its title, else its path or external id.
export function documentTitle(document) {
  return document.title || document.path || document.externalId || "untitled";
}

export function relationshipLabel(relationship) {
  return relationship.kind === "FACT" ? relationship.predicate || "related to" : "appears with";
}

function showPanel(title, note, body) {
  const panel = $("#panel");
  replace(
    panel,
    h("header", {}, h("h2", {}, bdi(title)), h("button", { class: "close", onclick: closePanel, "aria-label": "Close" }, "×")),
    note ? h("p", { class: "note" }, note) : null,
    h("div", { class: "panel-body" }, body),
  );
  panel.hidden = false;
  return panel;
}

function closePanel() {
  $("#panel").hidden = true;
}

export function methodBadges(methods) {
  return h("span", { class: "methods" }, methods.map((method) => badge(method.toLowerCase(), `method ${method.toLowerCase()}`)));
}
