"""What runs a graph: Session and its feeds and fetches, plans, the executor and frame loops,
the frame compiler, placement and partitioning, rendezvous, step stats, deadlines, resources,
threads, VLOG output and random streams. Imports engine.framework, never engine.api."""
