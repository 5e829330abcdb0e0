"""The real-card studies: evidence, the local best response, the belief-table claims, the
abstraction-size study's real-card part, and the verifier."""
