"""vistlog: the command-line program. It only wires ``events`` (write side) and ``projections`` (read side)."""
