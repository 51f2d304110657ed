"""Local databases for development and CI: Neo4j from Maven jars, PostgreSQL from a wheel.

Nothing here runs when NEO4J_URI and DATABASE_URL point at real servers.
"""
