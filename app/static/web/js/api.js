// Trellis's public GraphQL API, and nothing else: queries over HTTP, subscriptions over
// graphql-transport-ws. Every failure becomes an ApiError with the API's own code.

const ENDPOINT = "/graphql";
const PROTOCOL = "graphql-transport-ws";

export class ApiError extends Error {
  constructor(code, message, extensions = {}) {
    super(message);
    this.code = code;
    this.extensions = extensions;
  }

  static of(error) {
    const extensions = error.extensions || {};
    return new ApiError(extensions.code || "INTERNAL_ERROR", error.message, extensions);
  }
}

export class Api {
  constructor(key) {
    this.key = key;
  }

  async query(text, variables = {}) {
    const response = await this.#post(text, variables);
    const body = await this.#body(response);
    if (body.errors && body.errors.length) throw ApiError.of(body.errors[0]);
    return body.data;
  }

  async #post(text, variables) {
    try {
      return await fetch(ENDPOINT, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-API-Key": this.key },
        body: JSON.stringify({ query: text, variables }),
      });
    } catch (error) {
      throw new ApiError("NETWORK", "Trellis did not answer: is the server running?");
    }
  }

  async #body(response) {
    const type = response.headers.get("content-type") || "";
    if (type.includes("json")) return response.json();
    const reason = response.status === 413 ? "BODY_TOO_LARGE" : "HTTP_" + response.status;
    throw new ApiError(reason, `The server answered ${response.status} ${response.statusText}.`);
  }

  // Calls handlers.next(data) for each event, then handlers.done() or handlers.error(ApiError).
  // Returns a function that stops the subscription.
  subscribe(text, variables, handlers) {
    return new Subscription(this.key, { query: text, variables }, handlers).stop;
  }
}

class Subscription {
  constructor(key, payload, handlers) {
    this.handlers = handlers;
    this.ended = false;
    this.socket = new WebSocket(socketUrl(), PROTOCOL);
    this.socket.onopen = () => this.#send({ type: "connection_init", payload: { "X-API-Key": key } });
    this.socket.onmessage = (event) => this.#receive(JSON.parse(event.data), payload);
    this.socket.onclose = (event) => this.#closed(event);
    this.stop = () => this.#end(() => this.#send({ id: "1", type: "complete" }));
  }

  #send(message) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  #receive(message, payload) {
    const on = {
      connection_ack: () => this.#send({ id: "1", type: "subscribe", payload }),
      ping: () => this.#send({ type: "pong" }),
      next: () => this.#next(message.payload),
      error: () => this.#fail(ApiError.of(message.payload[0])),
      complete: () => this.#end(() => this.handlers.done && this.handlers.done()),
    }[message.type];
    if (on) on();
  }

  #next(payload) {
    if (payload.errors && payload.errors.length) this.#fail(ApiError.of(payload.errors[0]));
    else this.handlers.next(payload.data);
  }

  #fail(error) {
    this.#end(() => this.handlers.error(error));
  }

  #closed(event) {
    const reason = event.reason || "the connection closed";
    this.#fail(new ApiError("NETWORK", `The stream stopped: ${reason}.`));
  }

  #end(then) {
    if (this.ended) return;
    this.ended = true;
    then();
    this.socket.close(1000);
  }
}

function socketUrl() {
  return location.origin.replace(/^http/, "ws") + ENDPOINT;
}
