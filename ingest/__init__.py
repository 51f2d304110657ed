"""Ingestion: parse, section, chunk, analyze and embed documents and records, without an LLM."""
