"""The policies on real cards: Riemann v0.6 (the published table), our reconstruction of v0.5,
the population's types and the hold-out types, and the kernels of both Riemann policies."""
