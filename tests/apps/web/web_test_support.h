// What the web tests share: a server on a free port of 127.0.0.1 in a thread of its own, and
// JSON requests to it.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "apps/web/web_server.h"

namespace fairyzero::web_testing {

struct Answer {
  int status = 0;
  nlohmann::json body;
  std::string text;
};

class TestServer {
 public:
  explicit TestServer(WebServerConfig config = {})
      : server_([&] {
          config.port = 0;
          return config;
        }()) {
    port_ = server_.bind();
    thread_ = std::thread([this] { server_.serve(); });
  }
  ~TestServer() {
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }

  Answer get(const std::string& path) const { return answer(client().Get(path.c_str())); }
  Answer post(const std::string& path,
              const nlohmann::json& body = nlohmann::json::object()) const {
    return post_text(path, body.dump());
  }
  Answer post_text(const std::string& path, const std::string& body) const {
    return answer(client().Post(path.c_str(), body, "application/json"));
  }

 private:
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(120, 0);
    return c;
  }
  static Answer answer(const httplib::Result& result) {
    Answer a;
    if (!result) {
      ADD_FAILURE() << "no answer: " << httplib::to_string(result.error());
      return a;
    }
    a.status = result->status;
    a.text = result->body;
    a.body = nlohmann::json::parse(result->body, nullptr, false);
    return a;
  }

  WebServer server_;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace fairyzero::web_testing
