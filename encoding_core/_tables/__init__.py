"""Generated tables; see scripts/."""
