// `fairyzero serve`: the web board on 127.0.0.1 (unless --host says otherwise) until Ctrl-C.
#include <signal.h>

#include <iostream>
#include <thread>

#include "apps/commands.h"
#include "apps/web/web_server.h"

namespace fairyzero {

int serve_command(const Arguments& args) {
  if (!args.positional().empty()) throw UsageError("serve takes options only");
  WebServerConfig config;
  config.host = args.value("--host").value_or(config.host);
  config.port = static_cast<int>(args.integer("--port", config.port));
  config.runs_dir = args.value("--runs").value_or("");
  config.bots_dir = args.value("--bots").value_or("");
  config.threads = static_cast<int>(args.integer("--threads", config.threads));
  // SIGINT and SIGTERM stop the server from a thread of their own; blocked before any starts.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  WebServer server(config);
  const int port = server.bind();
  std::cout << "serve: the board is at http://" << config.host << ":" << port << "/"
            << (config.runs_dir.empty() ? "" : "; runs from " + config.runs_dir)
            << (config.bots_dir.empty() ? "" : "; bots from " + config.bots_dir)
            << " (Ctrl-C stops it)" << std::endl;
  std::thread watcher([&server, signals] {
    int signal = 0;
    sigwait(&signals, &signal);
    server.stop();
  });
  server.serve();
  // Stopped by a signal, or the server failed: wake the watcher either way.
  pthread_kill(watcher.native_handle(), SIGTERM);
  watcher.join();
  std::cout << "serve: stopped" << std::endl;
  return 0;
}

}  // namespace fairyzero
