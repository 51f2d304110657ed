// Collections: the list, a collection's documents, and uploads of files or a folder with
// live progress from ingestProgress, ending with each failure and its code.

import { $, badge, bdi, h, replace, when } from "./dom.js";
import { errorBox } from "./errors.js";
import { documentTitle } from "./reader.js";
import { CREATE_COLLECTION, DOCUMENTS, INGEST, INGEST_PROGRESS, JOB_OUTCOMES } from "./queries.js";

// One request carries at most this much file data: under the server's ingest body cap.
const BATCH_BYTES = 24 * 1024 * 1024;
const TYPES = { md: "text/markdown", markdown: "text/markdown", txt: "text/plain", html: "text/html", htm: "text/html", pdf: "application/pdf" };

export function mount(session, root, [name], { refresh }) {
  const current = name || [...session.chosen][0] || (session.collections[0] && session.collections[0].name);
  replace(
    root,
    h(
      "section",
      { class: "collections" },
      h("h1", {}, "Collections"),
      collectionList(session, current),
      createForm(session, refresh),
      current ? collectionView(session, current) : h("p", {}, "Create a collection to upload documents into."),
    ),
  );
}

function collectionList(session, current) {
  const items = session.collections.map((c) =>
    h("li", { class: c.name === current ? "current" : "" }, h("a", { href: `#/collections/${encodeURIComponent(c.name)}` }, bdi(c.name)), h("span", { class: "hint" }, ` created ${when(c.createdAt)} · graph ${c.graph ? "projected " + when(c.graph.projectedAt) : "not yet projected"}`)),
  );
  return h("ul", { id: "collection-list", class: "collection-list" }, items);
}

function createForm(session, refresh) {
  const allowed = session.can("admin");
  const form = h(
    "form",
    { id: "create-form", class: "row" },
    h("input", { id: "new-collection", required: true, placeholder: "New collection name", disabled: !allowed }),
    h("button", { type: "submit", disabled: !allowed, title: allowed ? "" : session.reason("admin") }, "Create"),
    allowed ? null : h("span", { class: "denied" }, session.reason("admin")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("#new-collection", form).value.trim();
    try {
      await session.api.query(CREATE_COLLECTION, { name });
      session.choose([...session.chosen, name]);
      location.hash = `#/collections/${encodeURIComponent(name)}`;
      await refresh();
    } catch (error) {
      form.append(errorBox(error));
    }
  });
  return form;
}

function collectionView(session, name) {
  const documents = h("div", { id: "documents" });
  loadDocuments(session, name, documents, null);
  return h("div", {}, h("h2", {}, "Upload to ", bdi(name)), uploadForm(session, name, documents), h("h2", {}, "Documents"), documents);
}

async function loadDocuments(session, name, container, after) {
  try {
    const { documents } = await session.api.query(DOCUMENTS, { collection: name, after });
    const rows = documents.edges.map(({ node }) => documentRow(node));
    const table = after ? $("tbody", container) : null;
    if (table) table.append(...rows);
    else replace(container, rows.length ? h("table", { class: "documents" }, h("thead", {}, h("tr", {}, ["Title", "Type", "Status", "Chunks", "Updated"].map((t) => h("th", {}, t)))), h("tbody", {}, rows)) : h("p", {}, "No documents yet."));
    $(".more", container)?.remove();
    if (documents.pageInfo.hasNextPage) container.append(h("button", { class: "more secondary", onclick: () => loadDocuments(session, name, container, documents.pageInfo.endCursor) }, "More"));
  } catch (error) {
    replace(container, errorBox(error));
  }
}

function documentRow(doc) {
  const notes = doc.graphNotes.length ? h("div", { class: "hint" }, doc.graphNotes.join("; ")) : null;
  const ask = h("a", { class: "ask-document", href: `#/ask/document/${encodeURIComponent(doc.id)}`, title: "Ask about this document, read whole" }, "ask");
  return h("tr", {}, h("td", { dir: "auto" }, bdi(documentTitle(doc)), " ", ask, notes), h("td", {}, doc.contentType), h("td", {}, badge(doc.status.toLowerCase())), h("td", {}, String(doc.chunkCount)), h("td", {}, when(doc.updatedAt)));
}

function uploadForm(session, name, documents) {
  const allowed = session.can("ingest");
  const files = h("input", { id: "upload-files", type: "file", multiple: true, disabled: !allowed });
  const folder = h("input", { id: "upload-folder", type: "file", webkitdirectory: true, disabled: !allowed });
  const progress = h("div", { id: "progress" });
  const button = h("button", { type: "submit", id: "upload-button", disabled: !allowed, title: allowed ? "" : session.reason("ingest") }, "Upload");
  const form = h(
    "form",
    { id: "upload-form" },
    h("div", { class: "row" }, h("label", {}, "Files ", files), h("label", {}, "or a folder ", folder), button),
    allowed ? null : h("p", { class: "denied", role: "note" }, session.reason("ingest")),
    progress,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const chosen = [...files.files, ...folder.files];
    if (chosen.length) upload(session, name, chosen, { progress, documents, button });
  });
  return form;
}

async function upload(session, name, files, view) {
  view.button.disabled = true;
  replace(view.progress, h("p", { class: "hint" }, `Reading ${files.length} file(s)…`));
  try {
    for (const batch of batches(files)) await uploadBatch(session, name, batch, view);
  } catch (error) {
    view.progress.append(errorBox(error));
  } finally {
    view.button.disabled = false;
    loadDocuments(session, name, view.documents, null);
  }
}

function batches(files) {
  const found = [[]];
  let size = 0;
  for (const file of files) {
    if (size + file.size > BATCH_BYTES && found[found.length - 1].length) {
      found.push([]);
      size = 0;
    }
    found[found.length - 1].push(file);
    size += file.size;
  }
  return found;
}

async function uploadBatch(session, name, files, view) {
  const documents = await Promise.all(files.map(documentInput));
  const { ingestDocuments } = await session.api.query(INGEST, { collection: name, documents });
  const box = h("div", { class: "job", dataset: { job: ingestDocuments.job.id } });
  const reading = $(".hint", view.progress);
  if (reading) reading.remove();
  view.progress.append(box);
  const refused = ingestDocuments.outcomes.filter((o) => o.status === "FAILED");
  await follow(session, ingestDocuments.job.id, box);
  box.append(failureList(refused.concat(await laterFailures(session, ingestDocuments.job.id, refused))));
}

async function documentInput(file) {
  const path = file.webkitRelativePath || file.name;
  const extension = path.split(".").pop().toLowerCase();
  const data = await base64(file);
  return { externalId: path, path, contentType: file.type || TYPES[extension] || null, data };
}

function base64(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result.slice(reader.result.indexOf(",") + 1));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function follow(session, jobId, box) {
  return new Promise((resolve, reject) => {
    session.api.subscribe(INGEST_PROGRESS, { jobId }, {
      next: (data) => replace(box, progressView(data.ingestProgress)),
      error: reject,
      done: resolve,
    });
  });
}

function progressView(p) {
  const bytes = p.bytes ? Math.round((100 * p.bytesDone) / p.bytes) : 100;
  return h(
    "div",
    { class: p.final ? "progress final" : "progress", dataset: { final: String(p.final) } },
    h("progress", { max: String(p.total || 1), value: String(p.done) }),
    h("p", {}, `${p.done}/${p.total} documents · ${bytes}% of ${formatBytes(p.bytes)} · ${p.chunks} chunks · ${p.indexed} indexed · ${p.unchanged} unchanged · ${p.failed} failed · ${p.graphed} graphed${p.graphFailed ? ` · ${p.graphFailed} not graphed` : ""}`),
    p.final ? h("p", { class: "done" }, "Done.") : null,
  );
}

function formatBytes(bytes) {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function laterFailures(session, jobId, refused) {
  const seen = new Set(refused.map((o) => o.index));
  const { job } = await session.api.query(JOB_OUTCOMES, { id: jobId });
  return job.outcomes.filter((o) => o.status === "FAILED" && !seen.has(o.index));
}

function failureList(failures) {
  if (!failures.length) return null;
  return h("div", { class: "failures" }, h("h3", {}, `${failures.length} failed`), h("ul", {}, failures.map((f) => h("li", { dataset: { code: f.code || "" } }, bdi(f.externalId), ": ", h("code", {}, f.code || "FAILED"), " ", f.message || ""))));
}
