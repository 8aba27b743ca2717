"""Points won abroad, registered by the secretariat (DBf § 440)."""
