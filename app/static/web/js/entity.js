// An entity's page: its neighbourhood drawn with Cytoscape.js (as of a date, if asked),
// paths to another entity, and its timeline. Clicking an edge shows its evidence.

import { $, bdi, h, replace } from "./dom.js";
import { errorBox } from "./errors.js";
import { entityLink, pathChain } from "./paths.js";
import { ENTITIES, ENTITY_PAGE, NEIGHBORHOOD, PATHS, TIMELINE } from "./queries.js";
import { documentTitle, openEvidence, relationshipLabel } from "./reader.js";

export function mount(session, root, [id]) {
  const page = h("section", { class: "entity-page" }, h("p", { class: "hint" }, "Loading…"));
  replace(root, page);
  if (!session.can("search")) return replace(page, h("p", { class: "denied" }, session.reason("search")));
  load(session, page, id).catch((error) => replace(page, errorBox(error)));
  return forgetGraph;
}

async function load(session, page, id) {
  const { entity } = await session.api.query(ENTITY_PAGE, { id });
  const graph = h("div", { id: "graph", class: "graph-view" });
  const controls = graphControls(session, entity, graph);
  replace(
    page,
    h("h1", {}, bdi(entity.name), " ", h("span", { class: "hint" }, entity.type)),
    entity.aliases.length ? h("p", { class: "hint" }, "Also: ", entity.aliases.join(", ")) : null,
    h("p", { class: "hint" }, `${entity.mentionCount} mention(s) in `, entity.documents.edges.map((e) => documentTitle(e.node)).join(", ")),
    h("h2", {}, "Neighbourhood"),
    controls,
    graph,
    h("p", { id: "graph-note", class: "note" }),
    pathsBox(session, entity),
    h("h2", {}, "Timeline"),
    h("div", { id: "timeline" }, h("p", { class: "hint" }, "Loading…")),
  );
  await Promise.all([drawNeighbourhood(session, entity, graph, controls), showTimeline(session, entity)]);
}

function graphControls(session, entity, graph) {
  const form = h(
    "form",
    { id: "graph-form", class: "row" },
    h("label", {}, "Hops ", h("select", { id: "hops" }, h("option", { value: "1" }, "1"), h("option", { value: "2" }, "2"))),
    h("label", {}, "As of ", h("input", { id: "as-of", type: "date" })),
    h("button", { type: "submit" }, "Draw"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    drawNeighbourhood(session, entity, graph, form);
  });
  return form;
}

async function drawNeighbourhood(session, entity, graph, controls) {
  const asOf = $("#as-of", controls).value;
  const variables = { id: entity.id, hops: Number($("#hops", controls).value), asOf: asOf ? `${asOf}T23:59:59Z` : null };
  try {
    const { neighborhood } = await session.api.query(NEIGHBORHOOD, variables);
    draw(session, graph, neighborhood);
    const note = `${neighborhood.nodes.length} entities, ${neighborhood.edges.length} edges${asOf ? ` as of ${asOf}` : ""}${neighborhood.truncated ? "; cut at its bounds" : ""}. Click an edge for its evidence, an entity for its page.`;
    replace($("#graph-note"), note);
  } catch (error) {
    replace($("#graph-note"), errorBox(error));
  }
}

function forgetGraph() {
  if (window.trellisGraph) window.trellisGraph.destroy();
  window.trellisGraph = null;
}

function draw(session, container, neighborhood) {
  forgetGraph();
  const names = new Map([[neighborhood.center.id, neighborhood.center.name]]);
  for (const node of neighborhood.nodes) names.set(node.entity.id, node.entity.name);
  const cy = cytoscape({
    container,
    elements: elements(neighborhood, names),
    style: GRAPH_STYLE,
    layout: { name: "cose", animate: false, randomize: false, nodeDimensionsIncludeLabels: true },
    wheelSensitivity: 0.3,
  });
  cy.on("tap", "edge", (event) => {
    const edge = event.target.data();
    openEvidence(session, edge.relationship, { source: names.get(edge.source), target: names.get(edge.target) });
  });
  cy.on("tap", "node", (event) => (location.hash = `#/entity/${encodeURIComponent(event.target.id())}`));
  // The side panel opening narrows the page: the drawing follows its container.
  new ResizeObserver(() => cy.destroyed() || (cy.resize(), cy.fit(undefined, 30))).observe(container);
  window.trellisGraph = cy;
}

function elements(neighborhood, names) {
  const center = neighborhood.center;
  const nodes = [{ data: { id: center.id, label: center.name, type: center.type, center: "yes" } }];
  for (const node of neighborhood.nodes) {
    if (node.entity.id !== center.id) nodes.push({ data: { id: node.entity.id, label: node.entity.name, type: node.entity.type } });
  }
  const edges = neighborhood.edges
    .filter((edge) => names.has(edge.source) && names.has(edge.target))
    .map((edge, index) => ({
      data: { id: `e${index}`, source: edge.source, target: edge.target, label: relationshipLabel(edge), kind: edge.kind, relationship: edge },
    }));
  return [...nodes, ...edges];
}

const GRAPH_STYLE = [
  { selector: "node", style: { label: "data(label)", "background-color": "#4f6d7a", color: "#1b1b1b", "font-size": 11, "text-valign": "bottom", "text-margin-y": 4 } },
  { selector: "node[center = 'yes']", style: { "background-color": "#c0392b", width: 40, height: 40 } },
  { selector: "edge", style: { label: "data(label)", "font-size": 9, "curve-style": "bezier", width: 2, "line-color": "#9aa5ab", "target-arrow-shape": "triangle", "target-arrow-color": "#9aa5ab", "text-rotation": "autorotate", "text-background-color": "#fff", "text-background-opacity": 0.8 } },
  { selector: "edge[kind = 'CO_OCCURRENCE']", style: { "line-style": "dashed", "target-arrow-shape": "none", label: "" } },
];

function pathsBox(session, entity) {
  const results = h("div", { id: "paths" });
  const form = h(
    "form",
    { id: "paths-form", class: "row" },
    h("input", { id: "path-to", type: "search", dir: "auto", required: true, placeholder: "Another entity's name" }),
    h("button", { type: "submit" }, "Find paths"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    findPaths(session, entity, $("#path-to", form).value.trim(), results);
  });
  return h("div", {}, h("h2", {}, "Paths"), form, results);
}

async function findPaths(session, entity, name, results) {
  try {
    const target = await bestMatch(session, name);
    if (!target) return replace(results, h("p", {}, `No entity called “${name}” in the chosen collections.`));
    const { paths } = await session.api.query(PATHS, { from: entity.id, to: target.id, asOf: null });
    const found = paths.paths.map((path) => pathChain(session, path));
    replace(results, found.length ? found : h("p", {}, "No path within four hops between ", entityLink(entity), " and ", entityLink(target), "."));
  } catch (error) {
    replace(results, errorBox(error));
  }
}

async function bestMatch(session, query) {
  const [best] = await matchEntities(session, query);
  return best ? best.entity : null;
}

// Entities named like `query` in the chosen collections, best first.
export async function matchEntities(session, query) {
  const found = await Promise.all([...session.chosen].map((collection) => session.api.query(ENTITIES, { collection, query })));
  return found.flatMap((f) => f.entities).sort((a, b) => b.score - a.score);
}

async function showTimeline(session, entity) {
  try {
    const { timeline } = await session.api.query(TIMELINE, { id: entity.id });
    const rows = timeline.facts.map((fact) => timelineRow(session, fact));
    replace($("#timeline"), rows.length ? h("table", { class: "timeline" }, h("tbody", {}, rows)) : h("p", {}, "No dated facts."));
  } catch (error) {
    replace($("#timeline"), errorBox(error));
  }
}

function timelineRow(session, fact) {
  const relationship = fact.relationship;
  const names = { source: fact.subject.name, target: fact.object.name };
  const when = [relationship.validFrom || "undated", relationship.validTo].filter(Boolean).join(" – ");
  return h(
    "tr",
    { class: fact.invalidated ? "invalidated" : "" },
    h("td", {}, when),
    h("td", {}, entityLink(fact.subject), " ", h("button", { class: "edge", onclick: () => openEvidence(session, relationship, names) }, relationshipLabel(relationship)), " ", entityLink(fact.object)),
    h("td", {}, fact.invalidated ? "no longer true" : ""),
  );
}
