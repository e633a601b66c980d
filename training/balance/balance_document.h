// The balance report's document: headings, paragraphs, tables and images, built from the
// statistics and rendered as Markdown and HTML; with the cell formats the sections share.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "training/balance/balance.h"
#include "training/balance/balance_report.h"

namespace fairyzero::balance_document {

struct Block {
  enum Kind { kHeading, kParagraph, kTable, kImage } kind;
  std::string text;                            // heading, paragraph, or image file
  int level = 2;                               // heading level
  std::vector<std::vector<std::string>> rows;  // table: the first row is the header
};
using Document = std::vector<Block>;

inline void heading(Document& d, const std::string& text, int level = 2) {
  d.push_back({Block::kHeading, text, level, {}});
}
inline void paragraph(Document& d, const std::string& text) {
  d.push_back({Block::kParagraph, text, 0, {}});
}
inline void table(Document& d, std::vector<std::vector<std::string>> rows) {
  d.push_back({Block::kTable, "", 0, std::move(rows)});
}
// An image, when the plots made it.
inline void image(Document& d, const std::vector<std::string>& plots, const std::string& file) {
  for (const std::string& p : plots)
    if (p == file) d.push_back({Block::kImage, file, 0, {}});
}

inline std::string number(double x, int decimals = 3) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  return text;
}
inline std::string signed_number(double x) { return (x >= 0 ? "+" : "") + number(x); }
inline std::string interval(const Estimate& e) {
  return number(e.value) + " [" + number(e.low) + ", " + number(e.high) + "]";
}
inline std::string signed_interval(const Estimate& e) {
  return signed_number(e.value) + " [" + signed_number(e.low) + ", " + signed_number(e.high) + "]";
}
inline std::string percent(double share) { return number(100 * share, 1) + "%"; }

// A header row: the row title's column, then one column per variant and strength.
inline std::vector<std::string> header(const std::vector<BalanceColumn>& columns,
                                       const std::string& first) {
  std::vector<std::string> row{first};
  for (const BalanceColumn& c : columns) row.push_back(c.label());
  return row;
}
// A row with one cell per column from `cell(column)`.
template <typename Cell>
inline std::vector<std::string> row(const std::vector<BalanceColumn>& columns,
                                    const std::string& title, Cell&& cell) {
  std::vector<std::string> r{title};
  for (const BalanceColumn& c : columns) r.push_back(cell(c));
  return r;
}

// The "Team balance" section (training/balance_team_report.cpp): nothing when no column has
// four seats.
void team_balance_section(Document& d, const std::vector<BalanceColumn>& columns,
                          const std::vector<std::string>& plots);

}  // namespace fairyzero::balance_document
