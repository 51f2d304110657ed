// The page: a key bar, the collections chosen, and one view at a time chosen by the URL
// fragment (#/ask, #/explore, #/entity/<id>, #/collections).

import { $, h, replace } from "./dom.js";
import { errorBox } from "./errors.js";
import { Session } from "./session.js";
import * as ask from "./ask.js";
import * as explore from "./explore.js";
import * as entity from "./entity.js";
import * as collections from "./collections.js";

const VIEWS = { ask, explore, entity, collections };
const session = new Session();
let unmount = null;

async function start() {
  $("#key-form").addEventListener("submit", useKey);
  $("#key").value = session.key;
  window.addEventListener("hashchange", route);
  await signIn();
}

async function useKey(event) {
  event.preventDefault();
  session.useKey($("#key").value);
  await signIn();
}

async function signIn() {
  replace($("#who"), "");
  try {
    if (session.key) await session.load();
    showWho();
  } catch (error) {
    session.viewer = null;
    replace($("#who"), errorBox(error));
  }
  renderChooser();
  route();
}

function showWho() {
  const viewer = session.viewer;
  if (!viewer) return replace($("#who"), h("span", { class: "hint" }, "Paste an API key to start."));
  const held = viewer.scopes.filter((grant) => grant.granted).map((grant) => grant.scope);
  replace($("#who"), h("span", {}, `${viewer.tenant} · ${viewer.plan} · ${held.join(", ")}`));
}

function renderChooser() {
  const boxes = session.collections.map((collection) =>
    h(
      "label",
      {},
      h("input", {
        type: "checkbox",
        value: collection.name,
        checked: session.chosen.has(collection.name),
        onchange: chooserChanged,
      }),
      collection.name,
    ),
  );
  const none = session.viewer && !session.can("search") ? session.reason("search") : "No collections yet.";
  replace($("#chooser"), boxes.length ? boxes : h("span", { class: "hint" }, none));
}

function chooserChanged() {
  const ticked = [...document.querySelectorAll("#chooser input:checked")].map((box) => box.value);
  session.choose(ticked);
}

function route() {
  const [name, ...rest] = (location.hash.replace(/^#\/?/, "") || "ask").split("/");
  const view = VIEWS[name] || ask;
  for (const link of document.querySelectorAll("nav a")) {
    link.classList.toggle("active", link.dataset.view === (name === "entity" ? "explore" : name));
  }
  if (unmount) unmount();
  const main = $("#view");
  replace(main);
  unmount = view.mount(session, main, rest.map(decodeURIComponent), { refresh: signIn }) || null;
}

start();
