"""Moonshine's rules (R1 to R26): the Chicago map, orders and their reader, the checker,
movement, money, the police, the turn, its results and its picture's scene. Pure;
imports the engine, the painter and the leaves."""
