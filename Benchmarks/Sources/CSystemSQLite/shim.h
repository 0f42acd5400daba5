// The system's SQLite (Debian: libsqlite3-dev), the library `kinship serve` stores in, called
// directly by WriterFloor to measure what SQLite alone costs.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies the bound value at once.
static inline void (*_Nonnull floor_sqlite_transient(void))(void *) { return (void (*)(void *))-1; }
