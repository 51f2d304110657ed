#!/usr/bin/env bash
# Re-vendor GraphiQL, React and graphql-ws from the npm registry into app/static/graphiql,
# with their licences and a manifest of versions and SHA-256 sums (checked by a test).
set -euo pipefail
GRAPHIQL=3.8.3 REACT=18.3.1 GRAPHQL_WS=5.16.2
out="$(cd "$(dirname "$0")/.." && pwd)/app/static/graphiql"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
for pkg in "graphiql@$GRAPHIQL" "react@$REACT" "react-dom@$REACT" "graphql-ws@$GRAPHQL_WS"; do
  name=${pkg%@*}; mkdir "$name"
  tar xzf "$(npm pack --silent "$pkg")" -C "$name"
done
mkdir -p "$out"
cp graphiql/package/graphiql.min.js graphiql/package/graphiql.min.css "$out/"
sed -i '/sourceMappingURL=/d' "$out/graphiql.min.js"
cp graphiql/package/LICENSE "$out/LICENSE.graphiql"
cp react/package/umd/react.production.min.js react/package/LICENSE "$out/" && mv "$out/LICENSE" "$out/LICENSE.react"
cp react-dom/package/umd/react-dom.production.min.js "$out/"
cp react-dom/package/LICENSE "$out/LICENSE.react-dom"
cp graphql-ws/package/umd/graphql-ws.min.js "$out/"
cp graphql-ws/package/LICENSE.md "$out/LICENSE.graphql-ws.md"
{
  echo "graphiql $GRAPHIQL"; echo "react $REACT"; echo "react-dom $REACT"; echo "graphql-ws $GRAPHQL_WS"
  (cd "$out" && sha256sum ./*.js ./*.css)
} > "$out/MANIFEST"
echo "vendored into $out"
