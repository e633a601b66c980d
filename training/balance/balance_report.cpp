// The balance report: a document of headings, paragraphs, tables and images built once from the
// statistics, rendered as Markdown and as HTML; the JSON for the plots and the plot script run.
#include "training/balance/balance_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "core/errors.h"
#include "training/balance/balance_document.h"
#include "training/play/run_program.h"

namespace fairyzero {
namespace fs = std::filesystem;
namespace {

using namespace balance_document;

void settings_section(Document& d, const BalanceReportSettings& s) {
  const BalanceConfig& c = s.config;
  if (!s.source.empty()) {
    paragraph(d, "Recorded games, read " + s.date + " by `" + s.command + "`. " + s.source +
                     " Material every " + std::to_string(c.material_every) +
                     " plies. Intervals are 95%; definitions and formulas in docs/BALANCE.md.");
    return;
  }
  paragraph(d, "Self-play with the same bot on every seat. Played " + s.date + " by `" + s.command +
                   "`: " + std::to_string(c.games) + " games per column, the first " +
                   std::to_string(c.opening_plies) +
                   " plies at temperature 1 and then the most visited move, games stopped as "
                   "draws after " +
                   std::to_string(c.max_plies) + " plies, seed " + std::to_string(c.seed) +
                   ". Intervals are 95%; definitions and formulas in docs/BALANCE.md.");
  if (s.resumed_columns.empty()) return;
  std::string columns;
  for (const std::string& label : s.resumed_columns)
    columns += (columns.empty() ? "" : ", ") + label;
  paragraph(d, std::string(s.resumed_columns.size() == 1 ? "Column " : "Columns ") + columns +
                   ": games an earlier run of this command played into "
                   "games.jsonl, kept by `--resume`.");
}

void summary_section(Document& d, const std::vector<BalanceColumn>& columns) {
  heading(d, "Summary");
  table(
      d,
      {header(columns, ""),
       row(columns, "games", [](const BalanceColumn& c) { return std::to_string(c.stats.games); }),
       row(columns, "first-move advantage",
           [](const BalanceColumn& c) { return signed_interval(c.stats.first_move_advantage); }),
       row(columns, "decided within " + std::to_string(kMiniaturePlies) + " plies",
           [](const BalanceColumn& c) {
             return std::to_string(c.stats.miniatures.games) + " (" +
                    percent(c.stats.miniatures.share.value) + ")";
           }),
       row(columns, "first-move advantage in the longer games",
           [](const BalanceColumn& c) {
             return signed_interval(c.stats.miniatures.longer_advantage);
           }),
       row(columns, "draw rate",
           [](const BalanceColumn& c) { return interval(c.stats.draws.rate); }),
       row(columns, "mean length (plies)",
           [](const BalanceColumn& c) { return number(c.stats.length.mean, 1); }),
       row(columns, "most common ending",
           [](const BalanceColumn& c) {
             if (c.stats.terminations.empty()) return std::string("-");
             const TerminationShare& t = c.stats.terminations.front();
             return t.termination + " (" + percent(t.share) + ")";
           }),
       row(columns, "distinct 4-ply openings",
           [](const BalanceColumn& c) { return std::to_string(c.stats.openings4.distinct); })});
}

void scores_section(Document& d, const std::vector<BalanceColumn>& columns,
                    const std::vector<std::string>& plots) {
  heading(d, "Scores per seat and team");
  paragraph(d,
            "Mean score (1 win, 0.5 draw, 0 loss) with its 95% interval. Seats are numbered "
            "in the variant's seat order; the first-move advantage is the first seat's score "
            "minus the mean score of all seats in the game (0.5 with two teams).");
  size_t max_seats = 0, max_teams = 0;
  bool individual = false;
  for (const BalanceColumn& c : columns) {
    max_seats = std::max(max_seats, c.stats.seats.size());
    max_teams = std::max(max_teams, c.stats.teams.size());
    individual = individual || c.stats.seats.size() > c.stats.teams.size();
  }
  std::vector<std::vector<std::string>> rows{header(columns, "")};
  for (size_t i = 0; i < max_seats; ++i)
    rows.push_back(row(columns, "seat " + std::to_string(i + 1), [&](const BalanceColumn& c) {
      return i < c.stats.seats.size()
                 ? c.stats.seats[i].seat + ": " + interval(c.stats.seats[i].team)
                 : std::string("-");
    }));
  for (size_t i = 0; individual && i < max_seats; ++i)
    rows.push_back(
        row(columns, "seat " + std::to_string(i + 1) + " individual", [&](const BalanceColumn& c) {
          return i < c.stats.seats.size()
                     ? c.stats.seats[i].seat + ": " + interval(c.stats.seats[i].individual)
                     : std::string("-");
        }));
  for (size_t i = 0; i < max_teams; ++i)
    rows.push_back(row(columns, "team " + std::to_string(i + 1), [&](const BalanceColumn& c) {
      return i < c.stats.teams.size()
                 ? c.stats.teams[i].team + ": " + interval(c.stats.teams[i].score)
                 : std::string("-");
    }));
  rows.push_back(row(columns, "first-move advantage", [](const BalanceColumn& c) {
    return signed_interval(c.stats.first_move_advantage);
  }));
  rows.push_back(row(columns, "draws (Wilson interval)", [](const BalanceColumn& c) {
    return std::to_string(c.stats.draws.draws) + "/" + std::to_string(c.stats.draws.games) + " = " +
           interval(c.stats.draws.rate);
  }));
  table(d, rows);
  image(d, plots, "seat_scores.png");
}

void endings_section(Document& d, const std::vector<BalanceColumn>& columns,
                     const std::vector<std::string>& plots) {
  heading(d, "How games end");
  std::vector<std::string> names;  // in order of first appearance, most common first
  for (const BalanceColumn& c : columns)
    for (const TerminationShare& t : c.stats.terminations)
      if (std::find(names.begin(), names.end(), t.termination) == names.end())
        names.push_back(t.termination);
  std::vector<std::vector<std::string>> rows{header(columns, "ending")};
  for (const std::string& name : names)
    rows.push_back(row(columns, name, [&](const BalanceColumn& c) {
      for (const TerminationShare& t : c.stats.terminations)
        if (t.termination == name) return std::to_string(t.count) + " (" + percent(t.share) + ")";
      return std::string("0");
    }));
  table(d, rows);
  image(d, plots, "terminations.png");
}

void length_section(Document& d, const std::vector<BalanceColumn>& columns,
                    const std::vector<std::string>& plots) {
  heading(d, "Game length");
  auto stat = [&](const std::string& title, auto field) {
    return row(columns, title, [&](const BalanceColumn& c) { return field(c.stats.length); });
  };
  table(d, {header(columns, "plies"),
            stat("mean", [](const LengthStats& l) { return number(l.mean, 1); }),
            stat("median", [](const LengthStats& l) { return number(l.median, 1); }),
            stat("quartiles",
                 [](const LengthStats& l) { return number(l.q1, 1) + " - " + number(l.q3, 1); }),
            stat("shortest", [](const LengthStats& l) { return std::to_string(l.min); }),
            stat("longest", [](const LengthStats& l) { return std::to_string(l.max); })});
  image(d, plots, "game_length.png");
  for (const BalanceColumn& c : columns) {
    heading(d, "Length histogram: " + c.label(), 3);
    std::vector<std::vector<std::string>> rows{{"plies", "games"}};
    for (const HistogramBin& b : c.stats.length.histogram)
      rows.push_back(
          {std::to_string(b.low) + "-" + std::to_string(b.high - 1), std::to_string(b.count)});
    table(d, rows);
  }
}

void openings_section(Document& d, const std::vector<BalanceColumn>& columns) {
  heading(d, "Opening diversity");
  paragraph(d,
            "Distinct sequences of the first plies, the Shannon entropy of their frequencies "
            "(bits; log2 of the count when all are equally common) and the share of the most "
            "common one.");
  std::vector<std::vector<std::string>> rows{header(columns, "")};
  for (int plies : {2, 4}) {
    auto of = [plies](const BalanceColumn& c) {
      return plies == 2 ? c.stats.openings2 : c.stats.openings4;
    };
    const std::string p = std::to_string(plies) + " plies: ";
    rows.push_back(row(columns, p + "distinct",
                       [&](const BalanceColumn& c) { return std::to_string(of(c).distinct); }));
    rows.push_back(row(columns, p + "entropy (bits)",
                       [&](const BalanceColumn& c) { return number(of(c).entropy_bits, 2); }));
    rows.push_back(row(columns, p + "most common share",
                       [&](const BalanceColumn& c) { return percent(of(c).top_share); }));
  }
  table(d, rows);
  for (const BalanceColumn& c : columns) {
    heading(d, "Most common 4-ply openings: " + c.label(), 3);
    const auto& common = c.stats.openings4.most_common;
    if (!common.empty() && common.front().second == 1) {
      paragraph(d, "Every game opened differently.");
      continue;
    }
    std::vector<std::vector<std::string>> top{{"opening", "games"}};
    for (const auto& [sequence, count] : c.stats.openings4.most_common)
      top.push_back({sequence, std::to_string(count)});
    table(d, top);
  }
}

void piece_values_section(Document& d, const std::vector<BalanceColumn>& columns,
                          const std::vector<std::string>& plots) {
  heading(d, "Piece values");
  paragraph(d,
            "Least squares (ridge) of the score of seat 1's team on each piece type's count "
            "difference between the teams at sampled plies, with game-clustered standard "
            "errors; values relative to the reference piece (= 1). A rough guide: the model "
            "is linear, the bot's style and strength shape it, and pieces that are rarely "
            "traded get wide intervals.");
  std::vector<std::string> names;
  for (const BalanceColumn& c : columns)
    for (const PieceValue& p : c.stats.piece_values.pieces)
      if (std::find(names.begin(), names.end(), p.piece) == names.end()) names.push_back(p.piece);
  std::vector<std::vector<std::string>> rows{header(columns, "piece")};
  for (const std::string& name : names)
    rows.push_back(row(columns, name, [&](const BalanceColumn& c) {
      for (const PieceValue& p : c.stats.piece_values.pieces) {
        if (p.piece != name) continue;
        if (!p.estimated) return std::string("-");
        if (p.scaled) return interval(*p.scaled);
        return "coef. " + signed_number(p.coefficient) + " ± " + number(1.96 * p.standard_error);
      }
      return std::string("n/a");  // not a piece of this variant
    }));
  rows.push_back(row(columns, "reference (= 1)", [](const BalanceColumn& c) {
    const PieceValueFit& f = c.stats.piece_values;
    return !f.note.empty() ? f.note : f.reference.empty() ? "none significant" : f.reference;
  }));
  rows.push_back(row(columns, "positions / games", [](const BalanceColumn& c) {
    return std::to_string(c.stats.piece_values.positions) + " / " +
           std::to_string(c.stats.piece_values.games);
  }));
  table(d, rows);
  image(d, plots, "piece_values.png");
}

Document build_document(const std::vector<BalanceColumn>& columns,
                        const BalanceReportSettings& settings,
                        const std::vector<std::string>& plots, const std::string& plot_problem) {
  Document d;
  std::string variants;
  for (const BalanceColumn& c : columns)
    if (variants.find(c.setup.title) == std::string::npos)
      variants += (variants.empty() ? "" : ", ") + c.setup.title;
  heading(d, "Balance report: " + variants, 1);
  settings_section(d, settings);
  if (!plot_problem.empty()) paragraph(d, "No plots: " + plot_problem);
  summary_section(d, columns);
  scores_section(d, columns, plots);
  if (std::find(plots.begin(), plots.end(), "score_vs_strength.png") != plots.end()) {
    heading(d, "Score against strength");
    image(d, plots, "score_vs_strength.png");
  }
  endings_section(d, columns, plots);
  length_section(d, columns, plots);
  openings_section(d, columns);
  piece_values_section(d, columns, plots);
  team_balance_section(d, columns, plots);
  heading(d, "Files");
  paragraph(d,
            "games.jsonl: every game (moves, result, material snapshots); balance.json: these "
            "statistics; the PNG plots are drawn from it by scripts/plot_balance.py.");
  return d;
}

// ---- Rendering ----

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char ch : text) out += ch == '|' ? std::string("\\|") : std::string(1, ch);
  return out;
}

std::string render_markdown(const Document& d) {
  std::ostringstream out;
  for (const Block& b : d) {
    if (b.kind == Block::kHeading) out << std::string(b.level, '#') << " " << b.text << "\n\n";
    if (b.kind == Block::kParagraph) out << b.text << "\n\n";
    if (b.kind == Block::kImage) out << "![" << b.text << "](" << b.text << ")\n\n";
    if (b.kind != Block::kTable || b.rows.empty()) continue;
    for (size_t r = 0; r < b.rows.size(); ++r) {
      out << "|";
      for (const std::string& cell : b.rows[r]) out << " " << markdown_cell(cell) << " |";
      out << "\n";
      if (r == 0) {
        out << "|";
        for (size_t c = 0; c < b.rows[0].size(); ++c) out << (c ? " ---: |" : " --- |");
        out << "\n";
      }
    }
    out << "\n";
  }
  return out.str();
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    switch (ch) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += ch;
    }
  }
  return out;
}

// Escapes, and turns Markdown's `code` spans into <code> elements.
std::string html_text(const std::string& text) {
  std::string out;
  bool code = false;
  for (char ch : text) {
    if (ch == '`') {
      out += code ? "</code>" : "<code>";
      code = !code;
    } else {
      out += html_escape(std::string(1, ch));
    }
  }
  return code ? out + "</code>" : out;
}

std::string render_html(const Document& d, const std::string& title) {
  std::ostringstream out;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
      << html_escape(title) << "</title>\n<style>\n"
      << "body { font-family: sans-serif; max-width: 70em; margin: 2em auto; padding: 0 1em; }\n"
      << "table { border-collapse: collapse; margin: 1em 0; }\n"
      << "th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: right; }\n"
      << "th:first-child, td:first-child { text-align: left; }\n"
      << "th { background: #eee; }\nimg { max-width: 100%; }\n</style>\n</head>\n<body>\n";
  for (const Block& b : d) {
    if (b.kind == Block::kHeading)
      out << "<h" << b.level << ">" << html_text(b.text) << "</h" << b.level << ">\n";
    if (b.kind == Block::kParagraph) out << "<p>" << html_text(b.text) << "</p>\n";
    if (b.kind == Block::kImage)
      out << "<p><img src=\"" << html_escape(b.text) << "\" alt=\"" << html_escape(b.text)
          << "\"></p>\n";
    if (b.kind != Block::kTable || b.rows.empty()) continue;
    out << "<table>\n";
    for (size_t r = 0; r < b.rows.size(); ++r) {
      const char* tag = r == 0 ? "th" : "td";
      out << "<tr>";
      for (const std::string& cell : b.rows[r])
        out << "<" << tag << ">" << html_text(cell) << "</" << tag << ">";
      out << "</tr>\n";
    }
    out << "</table>\n";
  }
  out << "</body>\n</html>\n";
  return out.str();
}

// ---- JSON (nlohmann-json) ----

using Json = nlohmann::ordered_json;

// NaN and infinities (an interval with no data) are written as null.
Json finite_or_null(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

Json estimate(const Estimate& e) {
  return {{"value", finite_or_null(e.value)},
          {"low", finite_or_null(e.low)},
          {"high", finite_or_null(e.high)}};
}

template <typename T, typename F>
Json list(const std::vector<T>& items, F&& item) {
  Json out = Json::array();
  for (const T& x : items) out.push_back(item(x));
  return out;
}

Json openings_json(const OpeningStats& o) {
  return {{"plies", o.plies},
          {"distinct", o.distinct},
          {"entropy_bits", finite_or_null(o.entropy_bits)},
          {"top_share", finite_or_null(o.top_share)},
          {"most_common", list(o.most_common, [](const auto& p) {
             return Json::array({p.first, p.second});
           })}};
}

Json piece_values_json(const PieceValueFit& f) {
  return {{"reference", f.reference},
          {"note", f.note},
          {"positions", f.positions},
          {"games", f.games},
          {"intercept", finite_or_null(f.intercept)},
          {"ridge", finite_or_null(f.ridge)},
          {"pieces", list(f.pieces, [](const PieceValue& p) {
             return Json{{"piece", p.piece},
                         {"estimated", p.estimated},
                         {"coefficient", finite_or_null(p.coefficient)},
                         {"standard_error", finite_or_null(p.standard_error)},
                         {"scaled", p.scaled ? estimate(*p.scaled) : Json(nullptr)}};
           })}};
}

Json length_json(const LengthStats& l) {
  return {{"mean", finite_or_null(l.mean)},
          {"median", finite_or_null(l.median)},
          {"q1", finite_or_null(l.q1)},
          {"q3", finite_or_null(l.q3)},
          {"min", l.min},
          {"max", l.max},
          {"plies", l.sorted_plies},
          {"histogram", list(l.histogram, [](const HistogramBin& b) {
             return Json{{"low", b.low}, {"high", b.high}, {"count", b.count}};
           })}};
}

Json column_json(const BalanceColumn& c) {
  const BalanceStats& s = c.stats;
  return {{"label", c.label()},
          {"variant", s.variant},
          {"strength", s.strength},
          {"games", s.games},
          {"seats", list(s.seats,
                         [](const SeatScore& x) {
                           return Json{{"seat", x.seat},
                                       {"team", estimate(x.team)},
                                       {"individual", estimate(x.individual)}};
                         })},
          {"teams", list(s.teams,
                         [](const TeamScore& t) {
                           return Json{{"team", t.team}, {"score", estimate(t.score)}};
                         })},
          {"first_move_advantage", estimate(s.first_move_advantage)},
          {"miniatures",
           {{"plies", s.miniatures.plies},
            {"games", s.miniatures.games},
            {"share", estimate(s.miniatures.share)},
            {"longer_games", s.miniatures.longer_games},
            {"longer_first_move_advantage", estimate(s.miniatures.longer_advantage)}}},
          {"draws", s.draws.draws},
          {"draw_rate", estimate(s.draws.rate)},
          {"terminations", list(s.terminations,
                                [](const TerminationShare& t) {
                                  return Json{{"termination", t.termination},
                                              {"count", t.count},
                                              {"share", finite_or_null(t.share)}};
                                })},
          {"length", length_json(s.length)},
          {"openings", Json::array({openings_json(s.openings2), openings_json(s.openings4)})},
          {"piece_values", piece_values_json(s.piece_values)},
          {"seat_order", s.team ? list(s.team->order,
                                       [](const SeatOrderScore& x) {
                                         return Json{{"position", x.position},
                                                     {"seat", x.seat},
                                                     {"team", estimate(x.team)}};
                                       })
                                : Json(nullptr)},
          {"dropout_first", s.team ? list(s.team->dropout_first,
                                          [](const DropoutFirst& x) {
                                            return Json{{"seat", x.seat},
                                                        {"first", x.first},
                                                        {"games", x.games},
                                                        {"share", estimate(x.share)}};
                                          })
                                   : Json(nullptr)},
          {"ranking", s.team ? list(s.team->ranking,
                                    [](const SeatRanking& x) {
                                      return Json{{"seat", x.seat},
                                                  {"games", x.games},
                                                  {"mean_rank", estimate(x.mean_rank)},
                                                  {"first_share", estimate(x.first_share)}};
                                    })
                             : Json(nullptr)}};
}

// ---- Files ----

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw UserError(path.string() + ": cannot write the balance report file");
}

std::string last_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return last;
}

// Runs the plot script; returns the problem, or empty when it worked.
std::string run_plots(const fs::path& dir, const BalanceReportSettings& settings) {
  fs::path script = settings.plot_script;
  if (script.empty()) {
    script = "scripts/plot_balance.py";
    if (!fs::exists(script))
      script = fs::path(FAIRYZERO_SOURCE_DIR) / "scripts" / "plot_balance.py";
  }
  if (!fs::exists(script)) return "the plot script " + script.string() + " is missing";
  std::string python = settings.python;
  if (python == "/usr/bin/python3" && !fs::exists(python)) python = "python3";
  const fs::path log = dir / "plot.log";
  if (run_program({python, script.string(), dir.string()}, log.string()) == 0) return "";
  const std::string reason = last_line(log);
  return "scripts/plot_balance.py failed (" + (reason.empty() ? "no output" : reason) + "; see " +
         log.string() + ")";
}

}  // namespace

std::string balance_json(const std::vector<BalanceColumn>& columns) {
  return Json{{"format", 1}, {"columns", list(columns, column_json)}}.dump(1) + "\n";
}

std::string game_json(const BalanceGame& g) {
  const std::vector<std::string> opening(g.moves.begin(),
                                         g.moves.begin() + std::min<size_t>(4, g.moves.size()));
  auto numbers = [](const std::vector<double>& xs) {
    return list(xs, [](double x) { return finite_or_null(x); });
  };
  return Json{{"variant", g.variant},
              {"strength", g.strength},
              {"termination", g.termination},
              {"plies", g.plies},
              {"team_score", numbers(g.team_score)},
              {"individual", numbers(g.individual)},
              {"rank", g.rank},
              {"dropout_order", g.dropout_order},
              {"seat_agent", g.seat_agent},
              {"opening", opening},
              {"moves", g.moves},
              {"material", list(g.material,
                                [](const MaterialSnapshot& m) {
                                  return Json{{"ply", m.ply}, {"count", m.count}};
                                })}}
      .dump();
}

void append_games_jsonl(const std::string& path, std::span<const BalanceGame> games) {
  std::ofstream out(path, std::ios::app);
  for (const BalanceGame& g : games) out << game_json(g) << "\n";
  out.close();
  if (!out) throw UserError(path + ": cannot write the game records");
}

std::string balance_markdown(const std::vector<BalanceColumn>& columns,
                             const BalanceReportSettings& settings,
                             const std::vector<std::string>& plots,
                             const std::string& plot_problem) {
  return render_markdown(build_document(columns, settings, plots, plot_problem));
}

std::string balance_html(const std::vector<BalanceColumn>& columns,
                         const BalanceReportSettings& settings,
                         const std::vector<std::string>& plots, const std::string& plot_problem) {
  return render_html(build_document(columns, settings, plots, plot_problem), "Balance report");
}

BalanceReportFiles write_balance_report(const std::string& out_dir,
                                        const std::vector<BalanceColumn>& columns,
                                        const BalanceReportSettings& settings) {
  const fs::path dir(out_dir);
  fs::create_directories(dir);
  BalanceReportFiles files;
  files.data = (dir / "balance.json").string();
  write_file(files.data, balance_json(columns));
  static const char* const kPlots[] = {"seat_scores.png",  "score_vs_strength.png",
                                       "terminations.png", "game_length.png",
                                       "piece_values.png", "seat_order.png"};
  for (const char* name : kPlots) fs::remove(dir / name);  // no stale plots from an earlier run
  if (settings.plots) files.plot_problem = run_plots(dir, settings);
  std::vector<std::string> shown;
  for (const char* name : kPlots) {
    if (!fs::exists(dir / name)) continue;
    shown.push_back(name);
    files.plots.push_back((dir / name).string());
  }
  files.markdown = (dir / "report.md").string();
  files.html = (dir / "report.html").string();
  write_file(files.markdown, balance_markdown(columns, settings, shown, files.plot_problem));
  write_file(files.html, balance_html(columns, settings, shown, files.plot_problem));
  return files;
}

}  // namespace fairyzero
