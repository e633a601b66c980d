// `fairyzero serve`: the web board's HTTP server. The pages are built into the binary; the JSON
// API (docs/WEB.md) plays games, runs bots and reads the runs and bots folders it was given.
#pragma once

#include <memory>
#include <string>

namespace fairyzero {

struct WebServerConfig {
  std::string host = "127.0.0.1";  // another address only when asked (--host)
  int port = 8080;                 // 0: any free port
  std::string runs_dir;            // replays and progress pages read only below it
  std::string bots_dir;            // seats may be played by the bot folders in it
  int threads = 8;                 // requests served at once (a bot search holds one)
};

class WebServer {
 public:
  explicit WebServer(WebServerConfig config);
  ~WebServer();
  // Binds the address; throws UserError when it cannot. Returns the port (for port 0).
  int bind();
  // Serves until stop() (from another thread or a signal handler's thread).
  void serve();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fairyzero
