"""State: what is. Per-game state and evolve(), the kernel fold (with undo), the replay
cursor with snapshots, per-seat views and SQL read models. Imports only ``events``."""
