// A few DOM helpers, so that views build elements rather than strings of HTML: text from
// documents and answers never becomes markup.

export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) setAttribute(element, name, value);
  element.append(...present(children));
  return element;
}

function setAttribute(element, name, value) {
  if (value === false || value === null || value === undefined) return;
  if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
  else if (name === "dataset") Object.assign(element.dataset, value);
  else element.setAttribute(name, value === true ? "" : value);
}

export function replace(element, ...children) {
  element.replaceChildren(...present(children));
}

// Children as views give them: nested lists, with null for "nothing here".
function present(children) {
  return children.flat(Infinity).filter((child) => child !== null && child !== undefined);
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

// Text whose direction follows its own first strong letter, inside any paragraph.
export function bdi(text) {
  return h("bdi", {}, text);
}

export function badge(text, kind = "") {
  return h("span", { class: `badge ${kind}`.trim() }, text);
}

export function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "—";
}
