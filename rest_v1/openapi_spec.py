def build(settings) -> dict:
    return {"openapi": "3.1.0", "info": {"title": "Vitrine API", "version": "1"}, "paths": {}}
