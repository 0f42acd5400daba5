// The system's SQLite (Debian: libsqlite3-dev), which Kinship's SQLite storage calls directly.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: SQLite copies the bound value at once.
static inline void (*_Nonnull kinship_sqlite_transient(void))(void *) { return (void (*)(void *))-1; }

// sqlite3_config is variadic, which Swift cannot call. Turns off SQLite's memory statistics, which
// Kinship never reads: keeping them takes one process-wide mutex on every allocation SQLite makes,
// and the connections' threads would queue on it. Only works before SQLite initializes (the
// first connection opened); later it answers SQLITE_MISUSE and changes nothing.
static inline int kinship_sqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
