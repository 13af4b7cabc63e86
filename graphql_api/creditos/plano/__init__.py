"""Plans: the catalogue (versioned), each integrator's subscription and its monthly cycle."""
