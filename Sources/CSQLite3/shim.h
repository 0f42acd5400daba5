// The system's SQLite (Debian: libsqlite3-dev), which Kinship's SQLite storage calls directly.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies the bound value at once.
static inline void (*_Nonnull kinship_sqlite_transient(void))(void *) { return (void (*)(void *))-1; }
