"""Trellis services: the layer between the GraphQL schema and the stores."""
