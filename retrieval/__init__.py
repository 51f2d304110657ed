"""Search: pure pieces (request, section references, fusion, highlights), no I/O."""
