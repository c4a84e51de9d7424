"""The HTTP job service: API, persistence, workers, signed webhooks, auth."""
