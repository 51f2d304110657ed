// Explore: ranked passages with how each was found, a graph hit's relationship path, and
// entities by name, each linking to its page.

import { $, bdi, h, replace } from "./dom.js";
import { errorBox } from "./errors.js";
import { entityLink, pathChain } from "./paths.js";
import { matchEntities } from "./entity.js";
import { SEARCH, THEMES } from "./queries.js";
import { documentTitle, methodBadges, openSpan } from "./reader.js";

export function mount(session, root) {
  const results = h("div", { id: "results" });
  const allowed = session.can("search");
  const form = h(
    "form",
    { id: "search-form", class: "row" },
    h("input", { id: "search-query", type: "search", dir: "auto", required: true, placeholder: "Search passages, or an entity's name", disabled: !allowed }),
    h("select", { id: "search-mode", disabled: !allowed }, ["HYBRID", "KEYWORD", "SEMANTIC", "GRAPH"].map((mode) => h("option", { value: mode }, mode.toLowerCase()))),
    h("button", { type: "submit", disabled: !allowed, title: allowed ? "" : session.reason("search") }, "Search"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    search(session, form, results);
  });
  const themes = h("div", { id: "themes" });
  replace(root, h("section", { class: "explore" }, h("h1", {}, "Explore"), form, allowed ? null : h("p", { class: "denied" }, session.reason("search")), results, themes));
  if (allowed) showThemes(session, themes);
}

// The global view: each chosen collection's themes (communities of its entity graph),
// with their top entities, best-supported facts and a representative passage.
async function showThemes(session, container) {
  try {
    const found = await Promise.all([...session.chosen].map(async (collection) => [collection, (await session.api.query(THEMES, { collection })).themes]));
    replace(container, found.map(([collection, themes]) => themeList(session, collection, themes)));
  } catch (error) {
    replace(container, errorBox(error));
  }
}

function themeList(session, collection, result) {
  const heading = h("h2", {}, "Themes of ", bdi(collection));
  if (!result.themes.length) return [heading, h("p", { class: "hint" }, "No themes yet: they are computed in the background after ingestion.")];
  return [heading, result.stale ? h("p", { class: "note" }, "Being recomputed after recent changes.") : null, h("ul", { class: "themes" }, result.themes.map((theme) => themeItem(session, theme)))];
}

function themeItem(session, theme) {
  const chunk = theme.chunks[0];
  const open = chunk ? () => openSpan(session, { documentId: chunk.documentId, unit: "CHARS", ...chunk.span }, chunk.title) : null;
  return h(
    "li",
    { class: "theme" },
    h("strong", {}, bdi(theme.label)), h("span", { class: "hint" }, ` · ${theme.size} entities`),
    h("div", {}, theme.entities.slice(0, 6).map((e) => [entityLink(e.entity), " "])),
    h("ul", { class: "facts" }, theme.facts.slice(0, 3).map((f) => h("li", {}, entityLink(f.subject), ` ${f.predicate} `, entityLink(f.object)))),
    chunk ? h("button", { class: "link", onclick: open }, h("q", { dir: "auto" }, chunk.excerpt)) : null,
  );
}

async function search(session, form, results) {
  const query = $("#search-query", form).value.trim();
  const collections = [...session.chosen];
  if (!collections.length) return replace(results, errorBox({ code: "BAD_USER_INPUT", message: "Choose at least one collection at the top of the page." }));
  replace(results, h("p", { class: "hint" }, "Searching…"));
  try {
    const input = { collections, query, mode: $("#search-mode", form).value, topK: 10 };
    const [found, entities] = await Promise.all([session.api.query(SEARCH, { input }), matchEntities(session, query)]);
    replace(results, entityList(entities), hitList(session, found.search));
  } catch (error) {
    replace(results, errorBox(error));
  }
}

function entityList(matches) {
  if (!matches.length) return null;
  const best = matches.slice(0, 8);
  return h("div", { class: "entity-matches" }, h("h2", {}, "Entities"), h("p", {}, best.map((m) => [entityLink(m.entity), " "])));
}

function hitList(session, result) {
  const notes = [];
  if (result.degraded) notes.push(`Degraded: ${result.missingLegs.join(", ")} did not answer.`);
  if (result.graphPending) notes.push(`${result.graphPending} document(s) are not in the graph yet.`);
  return h(
    "div",
    { class: "hits" },
    h("h2", {}, "Passages"),
    notes.map((note) => h("p", { class: "note" }, note)),
    result.hits.length ? h("ol", {}, result.hits.map((hit) => hitItem(session, hit))) : h("p", {}, "Nothing found."),
  );
}

function hitItem(session, hit) {
  const title = documentTitle(hit.document);
  const span = hit.spans[0];
  const open = () => span && openSpan(session, { documentId: hit.document.id, ...span }, title);
  return h(
    "li",
    { class: "hit", dataset: { methods: hit.discoveryMethods.join(" ") } },
    h("div", {}, h("button", { class: "link hit-title", onclick: open }, bdi(title)), hit.section ? h("span", { class: "hint" }, " · ", bdi(hit.section)) : null, " ", methodBadges(hit.discoveryMethods)),
    h("p", { class: "chunk", dir: "auto" }, highlighted(hit.chunkText, hit.highlights)),
    hit.relationshipPath ? pathChain(session, hit.relationshipPath) : null,
  );
}

function highlighted(text, highlights) {
  const pieces = [];
  let last = 0;
  for (const { start, end } of [...highlights].sort((a, b) => a.start - b.start)) {
    if (start < last) continue;
    pieces.push(text.slice(last, start), h("mark", {}, text.slice(start, end)));
    last = end;
  }
  pieces.push(text.slice(last));
  return pieces;
}
