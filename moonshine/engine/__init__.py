"""The adjudication engine, pure and variant-free: the resolver, the rule choices,
carrier chains, outcomes as values. Imports only ``text`` and ``errors``."""
