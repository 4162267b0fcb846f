"""HTTP controllers, one per audience."""
