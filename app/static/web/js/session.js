// Who is using the page: the key, what the API says it may do, and the collections chosen.

import { Api } from "./api.js";

const KEY = "trellis.apiKey";
const CHOSEN = "trellis.collections";

const VIEWER = `{ viewer { tenant plan scopes { scope granted reason } contentScopes } }`;
const COLLECTIONS = `{ collections { name createdAt graph { projectedAt } } }`;

export class Session {
  constructor() {
    this.key = takeKeyFromFragment() || localStorage.getItem(KEY) || "";
    this.api = new Api(this.key);
    this.viewer = null;
    this.collections = [];
    this.chosen = new Set(JSON.parse(localStorage.getItem(CHOSEN) || "[]"));
  }

  useKey(key) {
    this.key = key.trim();
    localStorage.setItem(KEY, this.key);
    this.api = new Api(this.key);
  }

  async load() {
    this.viewer = (await this.api.query(VIEWER)).viewer;
    this.collections = this.can("search") ? (await this.api.query(COLLECTIONS)).collections : [];
    const names = new Set(this.collections.map((c) => c.name));
    this.chosen = new Set([...this.chosen].filter((name) => names.has(name)));
    if (!this.chosen.size && this.collections.length) this.chosen.add(this.collections[0].name);
  }

  choose(names) {
    this.chosen = new Set(names);
    localStorage.setItem(CHOSEN, JSON.stringify([...this.chosen]));
  }

  can(scope) {
    return Boolean(this.#grant(scope) && this.#grant(scope).granted);
  }

  // The API's own words for why this key may not: what the disabled control shows.
  reason(scope) {
    const grant = this.#grant(scope);
    return grant ? grant.reason : "Paste an API key to start.";
  }

  #grant(scope) {
    return this.viewer && this.viewer.scopes.find((grant) => grant.scope === scope);
  }
}

// `make run` prints a link with the key in the fragment, which never reaches the server.
function takeKeyFromFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const key = fragment.get("apiKey");
  if (!key) return null;
  localStorage.setItem(KEY, key);
  history.replaceState(null, "", location.pathname + "#/ask");
  return key;
}
