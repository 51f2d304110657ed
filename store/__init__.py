"""PostgreSQL: the system of record. Every function takes the tenant it is scoped to."""
