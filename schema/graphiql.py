"""GraphiQL served from our own static files, so it works without internet.

The API key can be passed in the URL fragment (`/graphql#apiKey=...`): fragments never
reach the server or its logs. The page keeps it in localStorage for later visits.
"""

from __future__ import annotations

import json

STATIC = "/static/graphiql"
DEFAULT_QUERY_JS = json.dumps("{\n  collections {\n    name\n    graph { projectedAt }\n  }\n}\n")
DEFAULT_QUERY = "{\n  collections {\n    name\n    graph { projectedAt }\n  }\n}\n"

PAGE = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Trellis GraphiQL</title>
  <style>body {{ margin: 0; height: 100vh; }} #graphiql {{ height: 100vh; }}</style>
  <link rel="stylesheet" href="{STATIC}/graphiql.min.css">
  <script src="{STATIC}/react.production.min.js"></script>
  <script src="{STATIC}/react-dom.production.min.js"></script>
  <script src="{STATIC}/graphql-ws.min.js"></script>
  <script src="{STATIC}/graphiql.min.js"></script>
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script>
    const fragment = new URLSearchParams(location.hash.slice(1));
    if (fragment.get("apiKey")) {{
      localStorage.setItem("trellis.apiKey", fragment.get("apiKey"));
      history.replaceState(null, "", location.pathname);
    }}
    const apiKey = localStorage.getItem("trellis.apiKey") || "";
    const wsUrl = location.origin.replace(/^http/, "ws") + location.pathname;
    const fetcher = GraphiQL.createFetcher({{
      url: location.pathname,
      wsClient: graphqlWs.createClient({{
        url: wsUrl, connectionParams: {{ "X-API-Key": apiKey }},
      }}),
    }});
    ReactDOM.createRoot(document.getElementById("graphiql")).render(
      React.createElement(GraphiQL, {{
        fetcher,
        defaultHeaders: JSON.stringify({{ "X-API-Key": apiKey }}, null, 2),
        shouldPersistHeaders: true,
        defaultQuery: {DEFAULT_QUERY_JS},
      }}),
    );
  </script>
</body>
</html>
"""
