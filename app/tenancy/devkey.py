"""The development tenant's API key, kept in the data folder so `make run` reuses it. It
has every scope."""

from __future__ import annotations

from app.settings import Settings
from app.tenancy.keys import ApiKeys, KeyRequest
from store import keys
from store.pool import open_pool

DEV_TENANT = "development"


async def ensure_dev_key(settings: Settings, postgres_url: str) -> str:
    """The saved development key if it still works; otherwise a new one, saved."""
    path = settings.data_dir / "dev-api-key"
    pool = await open_pool(postgres_url, 1, settings.db_timeout_seconds)
    try:
        saved = path.read_text().strip() if path.exists() else ""
        if saved:
            async with pool.connection() as conn:
                if await keys.active(conn, saved) is not None:
                    return saved
        created = await ApiKeys(pool).create_for_name(DEV_TENANT, KeyRequest(name="development"))
    finally:
        await pool.close()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(created.secret + "\n")
    path.chmod(0o600)
    return created.secret
