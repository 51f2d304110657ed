"""Neo4j: the knowledge graph, derived from Postgres. One module per store operation."""
