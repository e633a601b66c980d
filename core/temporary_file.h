// Files written under a temporary name and renamed into place, so a reader sees all or nothing:
// names unique across the threads, processes and hosts that share a folder (a networked file
// system), easy for readers to skip and for a sweeper to remove once their writer is gone.
#pragma once

#include <string>
#include <vector>

namespace fairyzero {

// `path` + ".tmp-HOST-PID-N": the host and process that write it, and a counter for threads.
std::string temporary_name(const std::string& path);
// Is `file_name` such a temporary (or an older ".tmp." one)?
bool is_temporary_name(const std::string& file_name);
// Removes the temporaries directly in `folder` last modified more than `older_than_seconds`
// ago: left by a writer killed mid-write (SIGKILL, a lost node). Returns the paths removed.
std::vector<std::string> sweep_temporaries(const std::string& folder, double older_than_seconds);
// Writes a whole text file through a temporary name; throws std::runtime_error naming the file.
void write_text_atomically(const std::string& path, const std::string& text);
// This machine's host name, reduced to letters, digits and '-' (safe inside a file name).
std::string host_name();

}  // namespace fairyzero
