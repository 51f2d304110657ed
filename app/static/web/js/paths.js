// A relationship path drawn as a chain: entity, evidenced edge, entity, … Entities link to
// their page; an edge opens its evidence.

import { bdi, h } from "./dom.js";
import { openEvidence, relationshipLabel } from "./reader.js";

export function pathChain(session, path) {
  const links = [entityLink(path.entities[0] || path.steps[0].from)];
  for (const step of path.steps) links.push(edgeButton(session, step), entityLink(step.to));
  return h("div", { class: "path", dataset: { length: String(path.length) } }, links);
}

export function entityLink(entity) {
  const href = `#/entity/${encodeURIComponent(entity.id)}`;
  return h("a", { class: "entity", href, title: entity.type }, bdi(entity.name));
}

function edgeButton(session, step) {
  const relationship = step.relationship;
  const forward = relationship.source === step.from.id;
  const label = relationshipLabel(relationship);
  const names = forward
    ? { source: step.from.name, target: step.to.name }
    : { source: step.to.name, target: step.from.name };
  return h(
    "button",
    { class: `edge ${relationship.kind.toLowerCase()}`, onclick: () => openEvidence(session, relationship, names) },
    forward ? `— ${label} →` : `← ${label} —`,
  );
}
