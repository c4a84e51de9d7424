"""Routing rules, the review queue's policies, corrections and their audit trail."""
