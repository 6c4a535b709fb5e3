"""The TUI's widgets, one concept each."""
