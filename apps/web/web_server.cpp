// The web board's routes: pages, the JSON API of docs/WEB.md and the folders' reads. A bad
// request is a 4xx with {"error": MESSAGE}; nothing a request sends can stop the server.
#include "apps/web/web_server.h"

#include <httplib.h>

#include <algorithm>

#include "apps/web/web_assets.h"
#include "apps/web/web_games.h"
#include "apps/web/web_json.h"
#include "apps/web/web_runs.h"
#include "core/errors.h"
#include "core/variant_loader.h"

namespace fairyzero {
namespace {
using nlohmann::json;

void send_json(httplib::Response& res, const json& body, int status = 200) {
  res.status = status;
  res.set_content(body.dump(), "application/json");
}

json body_of(const httplib::Request& req) {
  if (req.body.empty()) return json::object();
  json body = json::parse(req.body, nullptr, false);
  if (body.is_discarded() || !body.is_object())
    throw WebError(400, "the request body is not a JSON object");
  return body;
}

SearchRequest search_request(const json& body) {
  SearchRequest request;
  auto number = [&](const char* key, double min, double max) -> double {
    if (!body.contains(key)) return 0;
    if (!body[key].is_number() || body[key].get<double>() < min || body[key].get<double>() > max)
      throw WebError(400, std::string(key) + " must be a number from " + std::to_string(min) +
                              " to " + std::to_string(max));
    return body[key].get<double>();
  };
  request.visits = static_cast<int>(number("visits", 1, 10000000));
  request.seconds = number("seconds", 0.01, 3600);
  if (body.contains("lines")) request.lines = static_cast<int>(number("lines", 1, 16));
  return request;
}

std::string query(const httplib::Request& req, const std::string& key) {
  if (!req.has_param(key.c_str())) throw WebError(400, "give ?" + key + "=...");
  return req.get_param_value(key.c_str());
}

}  // namespace

struct WebServer::Impl {
  explicit Impl(WebServerConfig c)
      : config(std::move(c)), games(config.bots_dir, config.runs_dir) {}
  void routes();
  WebServerConfig config;
  WebGames games;
  httplib::Server server;
};

void WebServer::Impl::routes() {
  for (const WebAsset& asset : web_assets()) {
    const std::string path = asset.name == "index.html" ? "/" : "/static/" + asset.name;
    server.Get(path, [asset](const httplib::Request&, httplib::Response& res) {
      res.set_content(std::string(asset.data, asset.size), asset.content_type);
    });
  }
  server.Get("/api/variants", [](const httplib::Request&, httplib::Response& res) {
    json list = json::array();
    for (const std::string& name : list_variants()) {
      VariantPtr v = find_variant(name);
      list.push_back({{"name", v->name}, {"title", v->title}, {"seats", v->seat_count()}});
    }
    send_json(res, list);
  });
  server.Get(R"(/api/variants/([A-Za-z0-9_.-]+))",
             [](const httplib::Request& req, httplib::Response& res) {
               const std::string name = req.matches[1];
               const std::vector<std::string> known = list_variants();
               if (std::find(known.begin(), known.end(), name) == known.end())
                 throw WebError(404, "no variant '" + name + "'");
               send_json(res, variant_json(*find_variant(name)));
             });
  server.Post("/api/games", [this](const httplib::Request& req, httplib::Response& res) {
    const std::string id = games.create(body_of(req));
    std::shared_ptr<WebGame> game = games.find(id);
    send_json(res,
              {{"id", id}, {"variant", variant_json(game->variant())}, {"state", game->state()}},
              201);
  });
  auto game_route = [this](const std::string& action, auto handler, bool post = true) {
    const std::string pattern = R"(/api/games/(\d+))" + action;
    auto wrapped = [this, handler](const httplib::Request& req, httplib::Response& res) {
      std::shared_ptr<WebGame> game = games.find(req.matches[1]);
      handler(*game, req, res);
    };
    if (post)
      server.Post(pattern, wrapped);
    else
      server.Get(pattern, wrapped);
  };
  game_route(
      "",
      [](WebGame& game, const httplib::Request&, httplib::Response& res) {
        send_json(res, {{"variant", variant_json(game.variant())}, {"state", game.state()}});
      },
      false);
  game_route(
      "/record",
      [](WebGame& game, const httplib::Request&, httplib::Response& res) {
        res.set_content(game.record(), "text/plain; charset=utf-8");
      },
      false);
  game_route("/move", [](WebGame& game, const httplib::Request& req, httplib::Response& res) {
    const json body = body_of(req);
    if (!body.contains("move") || !body["move"].is_string())
      throw WebError(400, "give {\"move\": TEXT}");
    send_json(res, game.play(body["move"]));
  });
  game_route("/bot", [](WebGame& game, const httplib::Request& req, httplib::Response& res) {
    send_json(res, game.bot_move(search_request(body_of(req))));
  });
  game_route("/analyse", [](WebGame& game, const httplib::Request& req, httplib::Response& res) {
    send_json(res, game.analyse(search_request(body_of(req))));
  });
  game_route("/stop", [](WebGame& game, const httplib::Request&, httplib::Response& res) {
    send_json(res, {{"stopped", game.stop()}});
  });
  game_route("/undo", [](WebGame& game, const httplib::Request&, httplib::Response& res) {
    send_json(res, game.undo());
  });
  game_route("/resign", [](WebGame& game, const httplib::Request& req, httplib::Response& res) {
    const json body = body_of(req);
    if (!body.contains("seat") || !body["seat"].is_number_integer())
      throw WebError(400, "give {\"seat\": N}");
    send_json(res, game.resign(body["seat"]));
  });
  server.Get("/api/bots", [this](const httplib::Request&, httplib::Response& res) {
    send_json(res, list_bots(config.bots_dir));
  });
  server.Get("/api/runs", [this](const httplib::Request&, httplib::Response& res) {
    send_json(res, list_runs(config.runs_dir));
  });
  server.Get("/api/runs/progress", [this](const httplib::Request& req, httplib::Response& res) {
    send_json(res, run_progress(config.runs_dir, query(req, "run")));
  });
  server.Get("/api/records", [this](const httplib::Request& req, httplib::Response& res) {
    send_json(res, read_records(config.runs_dir, query(req, "file")));
  });
  server.Get("/api/replay", [this](const httplib::Request& req, httplib::Response& res) {
    const std::string index = query(req, "game");
    if (index.empty() || !std::all_of(index.begin(), index.end(), ::isdigit) || index.size() > 7)
      throw WebError(400, "game must be a game number from 1");
    send_json(res, replay_record(config.runs_dir, query(req, "file"), std::stoi(index) - 1));
  });
  server.Get("/api/files", [this](const httplib::Request& req, httplib::Response& res) {
    // An image of a run (learning curves, a balance report's plots), for the progress page.
    const std::string path = path_inside(config.runs_dir, query(req, "path"));
    if (path.size() < 4 || path.substr(path.size() - 4) != ".png")
      throw WebError(403, "only .png images are served from the runs folder");
    std::ifstream in(path, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    res.set_content(data, "image/png");
  });
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
        try {
          std::rethrow_exception(error);
        } catch (const WebError& e) {
          send_json(res, {{"error", e.what()}}, e.status());
        } catch (const UserError& e) {
          send_json(res, {{"error", e.what()}}, 400);
        } catch (const std::exception& e) {
          send_json(res, {{"error", std::string("internal error: ") + e.what()}}, 500);
        }
      });
  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) send_json(res, {{"error", "no such page"}}, res.status);
  });
}

WebServer::WebServer(WebServerConfig config) : impl_(std::make_unique<Impl>(std::move(config))) {
  const int threads = std::max(2, impl_->config.threads);
  impl_->server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  impl_->routes();
}

WebServer::~WebServer() { stop(); }

int WebServer::bind() {
  const WebServerConfig& c = impl_->config;
  int port = c.port;
  if (port == 0) {
    port = impl_->server.bind_to_any_port(c.host.c_str());
    if (port < 0) throw UserError("serve: cannot bind " + c.host);
  } else if (!impl_->server.bind_to_port(c.host.c_str(), port)) {
    throw UserError("serve: cannot listen on " + c.host + ":" + std::to_string(port) +
                    " (in use, or not an address of this machine)");
  }
  return port;
}

void WebServer::serve() { impl_->server.listen_after_bind(); }

void WebServer::stop() {
  impl_->games.close_all();  // a thinking bot would hold its request's thread
  if (impl_->server.is_running()) impl_->server.stop();
}

}  // namespace fairyzero
