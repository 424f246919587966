// gir's graph construction, shared by both hosts: reading graph files (.el,
// .wel, .mtx, .gbin), sorting and deduplicating edges, CSR row pointers, the
// transpose and the edge-blocking tiling. Plain C++17, no CUDA: a complete CUDA
// program compiles it in (gir.targets.cuda_host), and the Python host calls the
// same code through the C ABI of graph_capi.cpp (gir.runtime.graph.native).
//
// Every problem with an input is a thrown gir_graph::Error, whose text() is
// gir's one-line located message (`path:line: error: message`).
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>
#ifdef GIR_GRAPH_THREADS
#include <thread>
#endif

namespace gir_graph {

const long long MAX_VERTICES = INT32_MAX;  // ids are int32, the largest is MAX_VERTICES - 1
const long long MAX_EDGES = (1LL << 62) - 1;  // edge counts and offsets are int64 (memory runs out first)
const size_t DISPLAY_LIMIT = 80;           // characters of a line shown in an error

// A problem with a graph input: `path` and `line` locate it where known.
struct Error {
  std::string path;
  long long line = 0;  // 0: the whole file (or no file)
  std::string message;

  std::string text() const {
    std::string location = path.empty() ? "" : path + ":" + (line > 0 ? std::to_string(line) + ":" : "") + " ";
    return location + "error: " + message;
  }
};

[[noreturn]] inline void raise(const std::string& path, long long line, const std::string& message) {
  throw Error{path, line, message};
}

inline bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// A line or token as error messages show it: trimmed, invalid UTF-8 replaced by
// U+FFFD, at most DISPLAY_LIMIT characters (longer ones end in "..."), and
// control characters escaped as \xNN, so that no input can drive the terminal.
inline std::string display(const char* begin, const char* end) {
  while (begin < end && is_space(*begin)) ++begin;
  while (end > begin && is_space(end[-1])) --end;
  std::vector<std::string> characters;
  for (const unsigned char* c = (const unsigned char*)begin; c < (const unsigned char*)end;) {
    size_t length = *c < 0x80 ? 1 : (*c >> 5) == 6 ? 2 : (*c >> 4) == 14 ? 3 : (*c >> 3) == 30 ? 4 : 0;
    bool valid = length > 0 && c + length <= (const unsigned char*)end;
    for (size_t i = 1; valid && i < length; ++i) valid = (c[i] >> 6) == 2;
    unsigned control = !valid ? 256 : (*c < 0x20 && *c != '\t') || *c == 0x7f ? *c : (*c == 0xc2 && c[1] < 0xa0) ? c[1] : 256;
    char escaped[8];
    std::snprintf(escaped, sizeof escaped, "\\x%02x", control);
    characters.push_back(control < 256 ? escaped : valid ? std::string((const char*)c, length) : "\xEF\xBF\xBD");
    c += valid ? length : 1;
  }
  size_t shown = characters.size() <= DISPLAY_LIMIT ? characters.size() : DISPLAY_LIMIT - 3;
  std::string text;
  for (size_t i = 0; i < shown; ++i) text += characters[i];
  return characters.size() <= DISPLAY_LIMIT ? text : text + "...";
}

// 12345678 as "12,345,678" (Python's format spec ",").
inline std::string with_commas(long long value) {
  std::string digits = std::to_string(value < 0 ? -value : value), text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return (value < 0 ? "-" : "") + text;
}

// ---------------------------------------------------------------------------
// Graph files
// ---------------------------------------------------------------------------

enum class Format { EDGE_LIST, WEIGHTED_EDGE_LIST, MATRIX_MARKET, BINARY };

// The suffix of a path as Python's PurePath.suffix spells it ("" for ".el" alone).
inline std::string suffix_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = name.find_last_of('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == name.size()) return "";
  return name.substr(dot);
}

// What a file that is not a regular one is, for messages.
inline std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

// Refuses a path that is missing or no regular file: a directory, FIFO or
// device (`/dev/zero`) would read as an empty, endless or blocking graph.
inline void check_regular(const std::string& path, int status_result, const struct stat& status) {
  if (status_result != 0) raise(path, 0, "graph file not found: " + path);
  if (!S_ISREG(status.st_mode)) raise(path, 0, "a graph must be a regular file, not " + kind_of(status.st_mode));
}

// The format of the graph file `path`, which must be a regular file (links
// followed) with a known extension.
inline Format graph_format(const std::string& path) {
  struct stat status;
  int found = ::stat(path.c_str(), &status);
  check_regular(path, found, status);
  std::string suffix = suffix_of(path), lower = suffix;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return (char)std::tolower(c); });
  if (lower == ".el") return Format::EDGE_LIST;
  if (lower == ".wel") return Format::WEIGHTED_EDGE_LIST;
  if (lower == ".mtx") return Format::MATRIX_MARKET;
  if (lower == ".gbin") return Format::BINARY;
  raise(path, 0, "unknown graph file extension '" + suffix + "' (expected .el, .wel, .mtx or .gbin)");
}

// The bytes of the regular file `path`: opened without blocking (a FIFO swapped
// in after graph_format cannot stall the reader), checked to be a regular file
// again, and read up to the size it had when opened.
inline std::string read_file(const std::string& path) {
  int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (descriptor < 0) raise(path, 0, std::string("cannot read the file: ") + std::strerror(errno));
  struct stat status;
  int found = ::fstat(descriptor, &status);
  if (found != 0 || !S_ISREG(status.st_mode)) {
    ::close(descriptor);
    check_regular(path, found, status);
  }
  std::string data((size_t)status.st_size, '\0');
  size_t done = 0;
  while (done < data.size()) {
    ssize_t got = ::read(descriptor, &data[done], data.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      int problem = errno;
      ::close(descriptor);
      raise(path, 0, std::string("cannot read the file: ") + std::strerror(problem));
    }
    if (got == 0) break;
    done += (size_t)got;
  }
  ::close(descriptor);
  data.resize(done);
  return data;
}

// Edges as read from a file: in file order unless `sorted` (a .gbin file).
struct Parsed {
  long long vertices = 0;
  bool has_weights = false;
  bool sorted = false;
  std::vector<int32_t> src, dst, weights;
};

// Reads a stretch of a text body line by line: the lines from `begin` up to
// `limit`, numbered after `number` (the lines before them).
struct Lines {
  const std::string& path;
  const char* data;
  const char* limit;
  const char* begin = nullptr;  // the current line
  const char* end = nullptr;
  long long number = 0;

  Lines(const std::string& path, const std::string& text) : Lines(path, text.data(), text.data() + text.size(), 0) {}
  Lines(const std::string& path, const char* begin, const char* limit, long long number)
      : path(path), data(begin), limit(limit), number(number) {}

  bool next() {
    if (data >= limit) return false;
    begin = data;
    const char* newline = static_cast<const char*>(std::memchr(data, '\n', (size_t)(limit - data)));
    end = newline != nullptr ? newline : limit;
    data = end + 1;
    ++number;
    return true;
  }

  bool blank_or_comment() const {
    if (begin < end && (*begin == '#' || *begin == '%')) return true;
    for (const char* c = begin; c < end; ++c) {
      if (!is_space(*c)) return false;
    }
    return true;
  }

  // The message about the current line, its text appended.
  std::string about(const std::string& message) const { return message + ": '" + display(begin, end) + "'"; }

  [[noreturn]] void fail(const std::string& message) const { raise(path, number, about(message)); }

  // The whitespace-separated tokens of the current line (at most `room`; the
  // count of all of them is returned).
  size_t tokens(std::pair<const char*, const char*>* found, size_t room) const {
    size_t count = 0;
    const char* c = begin;
    while (c < end) {
      while (c < end && is_space(*c)) ++c;
      const char* start = c;
      while (c < end && !is_space(*c)) ++c;
      if (c > start) {
        if (count < room) found[count] = {start, c};
        ++count;
      }
    }
    return count;
  }
};

// The first failure of each later check, raised once the whole body was read,
// in the order gir's checks run: every token first, then the entry count, then
// indices (integral, then rows, columns and a skew-symmetric diagonal), then
// weights.
struct Checks {
  enum Kind { INTEGRAL, ROWS, COLUMNS, DIAGONAL, WEIGHTS, KINDS };
  long long lines[KINDS] = {0, 0, 0, 0, 0};
  std::string messages[KINDS];

  void note(Kind kind, const Lines& lines_, const std::string& message) {
    if (lines[kind] == 0) {
      lines[kind] = lines_.number;
      messages[kind] = lines_.about(message);
    }
  }

  // Takes the failures `later` noted in a later stretch of the file, whose
  // lines it numbered `offset` too low, where this one has none.
  void merge(const Checks& later, long long offset) {
    for (int kind = 0; kind < KINDS; ++kind) {
      if (lines[kind] == 0 && later.lines[kind] > 0) {
        lines[kind] = later.lines[kind] + offset;
        messages[kind] = later.messages[kind];
      }
    }
  }

  void raise_first(const std::string& path) const {
    for (int kind = 0; kind < KINDS; ++kind) {
      if (lines[kind] > 0) raise(path, lines[kind], messages[kind]);
    }
  }
};

// An integer token `[+-]?[0-9]+` (values beyond int64 saturate).
inline bool parse_integer(const char* begin, const char* end, long long& value) {
  bool negative = *begin == '-';
  begin += *begin == '-' || *begin == '+';
  if (begin == end) return false;
  unsigned long long magnitude = 0;
  for (const char* c = begin; c < end; ++c) {
    if (*c < '0' || *c > '9') return false;
    magnitude = magnitude > (ULLONG_MAX - 9) / 10 ? ULLONG_MAX : magnitude * 10 + (unsigned)(*c - '0');
  }
  unsigned long long cap = negative ? (unsigned long long)LLONG_MAX + 1 : (unsigned long long)LLONG_MAX;
  magnitude = std::min(magnitude, cap);
  value = negative ? (long long)(0 - magnitude) : (long long)magnitude;
  return true;
}

// A number token `[+-]?([0-9]+.?[0-9]*|.[0-9]+)([eE][+-]?[0-9]+)?`, or nan/inf.
inline bool parse_number(const char* begin, const char* end, double& value) {
  bool negative = *begin == '-';
  const char* c = begin + (*begin == '+' || *begin == '-');
  const char* digits = c;
  size_t length = (size_t)(end - c);
  bool named = length > 0 && (*c == 'n' || *c == 'N' || *c == 'i' || *c == 'I');
  auto is = [&](const char* word) {
    return length == std::strlen(word) && std::equal(c, end, word, [](char x, char y) { return std::tolower((unsigned char)x) == y; });
  };
  if (named && (is("nan") || is("inf") || is("infinity"))) {
    value = is("nan") ? NAN : (negative ? -INFINITY : INFINITY);
    return true;
  }
  size_t whole = 0, fraction = 0;
  while (c < end && *c >= '0' && *c <= '9') ++c, ++whole;
  if (c < end && *c == '.') {
    ++c;
    while (c < end && *c >= '0' && *c <= '9') ++c, ++fraction;
  }
  if (whole + fraction == 0) return false;
  if (c < end && (*c == 'e' || *c == 'E')) {
    ++c;
    c += c < end && (*c == '+' || *c == '-');
    if (c == end || *c < '0' || *c > '9') return false;
    while (c < end && *c >= '0' && *c <= '9') ++c;
  }
  if (c != end) return false;
  if (std::from_chars(digits, end, value).ec != std::errc()) {
    value = std::strtod(std::string(digits, end).c_str(), nullptr);  // out of range: as strtod
  }
  value = negative ? -value : value;
  return true;
}

// The fast path of the text parsers: a data line in the common form (unsigned
// decimal indices, plain numbers, blanks between them) is read in one pass over
// its bytes, without splitting it into a line and tokens first. The scanners
// below accept only what the checked path (Lines, parse_integer, parse_number)
// reads to the same values and would let pass, and return nullptr for anything
// else (a sign where none is expected, a long or odd token, a comment, a blank
// line, a value out of range): that line is then read again by the checked
// path, which gives the located message. So the fast path changes speed only.

inline bool is_blank(char c) { return c != '\n' && is_space(c); }

// Blanks, then `-?[0-9]{1,18}` (no overflow possible) ending at a blank, a line
// end or `limit`: the position after it, or nullptr.
inline const char* scan_integer(const char* c, const char* limit, bool signed_, long long& value) {
  while (c < limit && is_blank(*c)) ++c;
  bool negative = signed_ && c < limit && *c == '-';
  c += negative;
  const char* digits = c;
  unsigned long long magnitude = 0;
  while (c < limit && (unsigned)(*c - '0') < 10u && c - digits < 18) magnitude = magnitude * 10 + (unsigned)(*c++ - '0');
  if (c == digits || (c < limit && !is_space(*c))) return nullptr;
  value = negative ? -(long long)magnitude : (long long)magnitude;
  return c;
}

// Blanks, then a plain decimal number that std::from_chars reads (it must
// start with a digit, '.' or '-') up to a blank, a line end or `limit`: the
// position after it, or nullptr.
inline const char* scan_number(const char* c, const char* limit, double& value) {
  while (c < limit && is_blank(*c)) ++c;
  if (c == limit || !((unsigned)(*c - '0') < 10u || *c == '.' || *c == '-')) return nullptr;
  std::from_chars_result read = std::from_chars(c, limit, value);
  if (read.ec != std::errc() || (read.ptr < limit && !is_space(*read.ptr))) return nullptr;
  return read.ptr;
}

// Blanks up to the end of the line at `c`: the start of the next line (or
// `limit`), or nullptr where more text follows.
inline const char* scan_line_end(const char* c, const char* limit) {
  while (c < limit && is_blank(*c)) ++c;
  if (c == limit) return limit;
  return *c == '\n' ? c + 1 : nullptr;
}

// A weight as int32: rounded to the nearest (even) integer, finite and in range.
inline bool weight_value(double weight, int32_t& value, std::string& problem) {
  if (!std::isfinite(weight)) {
    problem = "weight is not a finite number";
    return false;
  }
  weight = std::nearbyint(weight);
  if (weight < INT32_MIN || weight > INT32_MAX) {
    char text[64];
    std::snprintf(text, sizeof text, "weight %.0f does not fit in int32", weight);
    problem = text;
    return false;
  }
  value = (int32_t)weight;
  return true;
}

// The tokens of the current data line, which must hold `columns` of them.
inline void row_tokens(const Lines& lines, size_t columns, std::pair<const char*, const char*>* found) {
  size_t count = lines.tokens(found, columns);
  if (count != columns) {
    lines.fail("expected " + std::to_string(columns) + " columns, found " + std::to_string(count));
  }
}

inline void not_a(const Lines& lines, std::pair<const char*, const char*> token, const char* kind) {
  lines.fail("'" + display(token.first, token.second) + "' is not " + kind);
}

// The '\n' bytes from `begin` to `end`, eight at a time: a byte of `word ^
// "\n\n..."` is zero exactly where `word` holds '\n', and `zero_bytes` sets
// the high bit of exactly those bytes (no carry crosses a byte), summed per
// byte lane for at most 31 words (8 * 31 < 256) before the lanes are added.
inline size_t newline_count(const char* begin, const char* end) {
  const uint64_t ones = 0x0101010101010101ULL, lows = 0x7f7f7f7f7f7f7f7fULL;
  size_t count = 0;
  while (end - begin >= 8) {
    uint64_t lanes = 0;
    for (int k = 0; k < 31 && end - begin >= 8; ++k, begin += 8) {
      uint64_t word;
      std::memcpy(&word, begin, 8);
      word ^= ones * '\n';
      uint64_t zero_bytes = ~(((word & lows) + lows) | word) & (ones << 7);
      lanes += zero_bytes >> 7;
    }
    count += (size_t)((lanes * ones) >> 56);
  }
  return count + (size_t)std::count(begin, end, '\n');
}

inline size_t line_count(const std::string& data) { return newline_count(data.data(), data.data() + data.size()) + 1; }


// One stretch of a text body parsed on its own (see parse_stretches): its
// entries in file order, the first failure of each later check, and the error
// that stopped it, its lines numbered from the start of the stretch.
struct Stretch {
  std::vector<int32_t> src, dst, weights;
  Checks checks;
  long long entries = 0;   // data lines read
  long long largest = -1;  // the largest vertex id listed (edge lists)
  long long lines = 0;     // lines in the stretch
  bool failed = false;
  Error error;
};

// How many stretches a body of `bytes` is parsed in: one per hardware thread
// where the host was built with GIR_GRAPH_THREADS (the Python host's library;
// a complete CUDA program parses in one), at least 4 MB each.
inline size_t stretch_count(size_t bytes) {
#ifdef GIR_GRAPH_THREADS
  size_t threads = std::max<size_t>(1, std::thread::hardware_concurrency());
  return std::max<size_t>(1, std::min(threads, bytes / (4u << 20)));
#else
  (void)bytes;
  return 1;
#endif
}

// Parses the lines from `begin` to `limit` (numbered after `first_line`), each
// with `fast_line(line, limit, stretch)` where that takes it (the start of the
// next line, or nullptr: see scan_integer) and else, if a data line, with
// `parse_line(lines, stretch)`, in stretches split at line ends and parsed in
// parallel (see stretch_count). Joined, they give exactly what one pass gives:
// the first stretch that stopped raises its error, and each later check keeps
// its first failure in file order.
template <typename FastLine, typename ParseLine>
inline Stretch parse_stretches(const std::string& path, const char* begin, const char* limit, long long first_line,
                               bool weighted, FastLine fast_line, ParseLine parse_line) {
  size_t count = stretch_count((size_t)(limit - begin));
  std::vector<const char*> bounds{begin};
  for (size_t k = 1; k < count; ++k) {
    const char* cut = std::max(bounds.back(), begin + (size_t)(limit - begin) * k / count);
    const char* newline = static_cast<const char*>(std::memchr(cut, '\n', (size_t)(limit - cut)));
    bounds.push_back(newline != nullptr ? newline + 1 : limit);
  }
  bounds.push_back(limit);
  std::vector<Stretch> stretches(count);
  auto parse_one = [&](size_t k) {
    Stretch& stretch = stretches[k];
    Lines lines(path, bounds[k], bounds[k + 1], 0);
    size_t room = newline_count(bounds[k], bounds[k + 1]) + 1;  // at most an entry a line
    stretch.src.reserve(room);
    stretch.dst.reserve(room);
    if (weighted) stretch.weights.reserve(room);
    try {
      while (lines.data < lines.limit) {
        if (const char* next = fast_line(lines.data, lines.limit, stretch)) {
          lines.data = next;
          ++lines.number;
          ++stretch.entries;
        } else if (lines.next() && !lines.blank_or_comment()) {
          parse_line(lines, stretch);
          ++stretch.entries;
        }
      }
    } catch (const Error& error) {
      stretch.failed = true;
      stretch.error = error;
    } catch (const std::bad_alloc&) {
      stretch.failed = true;
      stretch.error = Error{"", 0, "out of host memory while reading the graph"};
    }
    stretch.lines = lines.number;
  };
#ifdef GIR_GRAPH_THREADS
  std::vector<std::thread> workers;
  for (size_t k = 1; k < count; ++k) workers.emplace_back(parse_one, k);
  parse_one(0);
  for (std::thread& worker : workers) worker.join();
#else
  for (size_t k = 0; k < count; ++k) parse_one(k);
#endif
  Stretch joined = std::move(stretches[0]);
  size_t total = 0;
  for (const Stretch& stretch : stretches) total += stretch.src.size();
  joined.src.reserve(total);
  joined.dst.reserve(total);
  if (weighted) joined.weights.reserve(total);
  long long offset = first_line;
  for (int kind = 0; kind < Checks::KINDS; ++kind) joined.checks.lines[kind] += joined.checks.lines[kind] > 0 ? offset : 0;
  if (joined.failed && joined.error.line > 0) joined.error.line += offset;
  offset += joined.lines;
  for (size_t k = 1; k < count && !joined.failed; ++k) {
    Stretch& later = stretches[k];
    if (later.failed) {
      joined.failed = true;
      joined.error = later.error;
      if (joined.error.line > 0) joined.error.line += offset;
      break;
    }
    joined.checks.merge(later.checks, offset);
    joined.entries += later.entries;
    joined.largest = std::max(joined.largest, later.largest);
    joined.src.insert(joined.src.end(), later.src.begin(), later.src.end());
    joined.dst.insert(joined.dst.end(), later.dst.begin(), later.dst.end());
    joined.weights.insert(joined.weights.end(), later.weights.begin(), later.weights.end());
    later = Stretch();  // its memory back before the next is joined
    offset += later.lines;
  }
  if (joined.failed) throw joined.error;
  return joined;
}

// An `.el` (`src dst`) or `.wel` (`src dst weight`) body: 0-based ids, the vertex
// count is the largest id plus one.
inline Parsed edge_list(const std::string& path, const std::string& data, bool weighted) {
  size_t columns = weighted ? 3 : 2;
  auto parse_line = [columns, weighted](const Lines& lines, Stretch& stretch) {
    std::pair<const char*, const char*> tokens[3];
    row_tokens(lines, columns, tokens);
    long long values[3];
    for (size_t i = 0; i < columns; ++i) {
      if (!parse_integer(tokens[i].first, tokens[i].second, values[i])) not_a(lines, tokens[i], "an integer");
    }
    for (size_t i = 0; i < 2; ++i) {
      if (values[i] < 0) {
        stretch.checks.note(Checks::ROWS, lines, "negative vertex id " + std::to_string(values[i]));
      } else if (values[i] > MAX_VERTICES - 1) {
        stretch.checks.note(Checks::ROWS, lines, "vertex id " + std::to_string(values[i]) + " is too large (at most " +
                                                     std::to_string(MAX_VERTICES - 1) + ")");
      }
      stretch.largest = std::max(stretch.largest, values[i]);
    }
    stretch.src.push_back((int32_t)values[0]);
    stretch.dst.push_back((int32_t)values[1]);
    if (weighted) {
      int32_t weight = 0;
      std::string problem;
      if (!weight_value((double)values[2], weight, problem)) stretch.checks.note(Checks::WEIGHTS, lines, problem);
      stretch.weights.push_back(weight);
    }
  };
  // A line of ids below MAX_VERTICES (and a weight that fits in int32).
  auto fast_line = [weighted](const char* c, const char* limit, Stretch& stretch) -> const char* {
    long long values[3] = {0, 0, 0};
    for (int i = 0; i < (weighted ? 3 : 2) && c != nullptr; ++i) c = scan_integer(c, limit, i == 2, values[i]);
    if (c == nullptr || (c = scan_line_end(c, limit)) == nullptr) return nullptr;
    if (values[0] > MAX_VERTICES - 1 || values[1] > MAX_VERTICES - 1) return nullptr;
    if (values[2] < INT32_MIN || values[2] > INT32_MAX) return nullptr;
    stretch.largest = std::max(stretch.largest, std::max(values[0], values[1]));
    stretch.src.push_back((int32_t)values[0]);
    stretch.dst.push_back((int32_t)values[1]);
    if (weighted) stretch.weights.push_back((int32_t)values[2]);
    return c;
  };
  Stretch body = parse_stretches(path, data.data(), data.data() + data.size(), 0, weighted, fast_line, parse_line);
  body.checks.raise_first(path);
  Parsed parsed;
  parsed.has_weights = weighted;
  parsed.vertices = body.largest + 1;
  parsed.src = std::move(body.src);
  parsed.dst = std::move(body.dst);
  parsed.weights = std::move(body.weights);
  return parsed;
}

// ---------------------------------------------------------------------------
// Matrix Market
// ---------------------------------------------------------------------------

// The banner a Matrix Market file must start with, for messages.
const char MTX_BANNER[] =
    "%%MatrixMarket matrix <coordinate|array> <pattern|integer|real|complex> "
    "<general|symmetric|skew-symmetric|hermitian>";

// What the banner and size line of a Matrix Market file say. As a graph, the
// matrix A has the edge i->j for each entry A[i][j] (a coordinate file's listed
// entries, an array file's nonzero values) with weight A[i][j]; a symmetric or
// hermitian file's off-diagonal entries also give j->i with the same weight, a
// skew-symmetric file's with the weight negated; complex values must have a zero
// imaginary part.
struct MtxHeader {
  bool array = false;  // dense, column by column; else coordinate
  bool has_weights = false, numbers = false, complex = false;
  bool mirrored = false, negated = false;  // symmetric or hermitian, or skew-symmetric
  long long sizes[3] = {-1, -1, -1};       // rows, columns, entries (an array: its values)
  long long size_line = 0;
  long long body_bytes = 0;  // the bytes after the size line

  long long vertices() const { return std::max(sizes[0], sizes[1]); }
  // An upper bound on the edges: an array's values also bounded by its bytes
  // (each takes at least two, "1\n").
  long long declared_edges() const {
    long long listed = array ? std::min(sizes[2], body_bytes / 2 + 1) : sizes[2];
    return listed * (mirrored || negated ? 2 : 1);
  }
  // The tokens of an entry line: the indices (coordinate), then the value's parts.
  size_t columns() const { return (array ? 0 : 2) + (has_weights ? (complex ? 2 : 1) : 0); }
};

// The fields of the banner, lowercase; raises unless it names a form gir reads.
inline MtxHeader matrix_market_banner(const Lines& lines) {
  std::vector<std::string> banner;
  std::pair<const char*, const char*> words[5];
  size_t count = lines.tokens(words, 5);
  for (size_t i = 0; i < std::min<size_t>(count, 5); ++i) {
    std::string word(words[i].first, words[i].second);
    std::transform(word.begin(), word.end(), word.begin(), [](unsigned char c) { return (char)std::tolower(c); });
    banner.push_back(word);
  }
  const std::string& path = lines.path;
  if (count != 5 || banner[0] != "%%matrixmarket" || banner[1] != "matrix") {
    raise(path, lines.number, std::string("not a Matrix Market file: expected the banner '") + MTX_BANNER + "'");
  }
  const std::string &format = banner[2], &field = banner[3], &symmetry = banner[4];
  if (format != "coordinate" && format != "array") {
    raise(path, lines.number, "unsupported Matrix Market format '" + format + "' (expected coordinate or array)");
  }
  if (field != "pattern" && field != "integer" && field != "real" && field != "complex") {
    raise(path, lines.number,
          "unsupported Matrix Market field '" + field + "' (expected pattern, integer, real or complex)");
  }
  if (symmetry != "general" && symmetry != "symmetric" && symmetry != "skew-symmetric" && symmetry != "hermitian") {
    raise(path, lines.number, "unsupported Matrix Market symmetry '" + symmetry +
                                  "' (expected general, symmetric, skew-symmetric or hermitian)");
  }
  if (field == "pattern" && format == "array") {
    raise(path, lines.number, "a Matrix Market array has values: 'pattern' is only for coordinate files");
  }
  if (field == "pattern" && symmetry != "general" && symmetry != "symmetric") {
    raise(path, lines.number, "a '" + symmetry + "' matrix is defined by its values: 'pattern' cannot be " + symmetry);
  }
  MtxHeader header;
  header.array = format == "array";
  header.has_weights = field != "pattern";
  header.numbers = field == "real" || field == "complex";
  header.complex = field == "complex";
  header.mirrored = symmetry == "symmetric" || symmetry == "hermitian";
  header.negated = symmetry == "skew-symmetric";
  return header;
}

// Reads the banner and the size line, leaving `lines` after the size line.
inline MtxHeader matrix_market_header(const std::string& path, Lines& lines) {
  if (!lines.next()) lines.begin = lines.end = lines.limit, lines.number = 1;
  MtxHeader header = matrix_market_banner(lines);
  size_t expected = header.array ? 2 : 3;
  const char* expected_line = header.array ? "expected the size line 'ROWS COLS'" : "expected the size line 'ROWS COLS ENTRIES'";
  while (lines.next()) {
    if (lines.blank_or_comment()) continue;
    std::pair<const char*, const char*> found[3];
    bool valid = lines.tokens(found, 3) == expected;
    for (size_t i = 0; valid && i < expected; ++i) {
      valid = parse_integer(found[i].first, found[i].second, header.sizes[i]) && header.sizes[i] >= 0;
    }
    if (!valid) lines.fail(expected_line);
    if (header.vertices() > MAX_VERTICES) lines.fail("the matrix is too large for int32 vertex ids");
    if (header.array && (header.mirrored || header.negated) && header.sizes[0] != header.sizes[1]) {
      lines.fail("a symmetric, skew-symmetric or hermitian array must be square (it lists a lower triangle)");
    }
    header.size_line = lines.number;
    break;
  }
  if (header.size_line == 0) {
    raise(path, 0, std::string("truncated file: the size line '") + (header.array ? "ROWS COLS" : "ROWS COLS ENTRIES") +
                       "' is missing");
  }
  header.body_bytes = (long long)(lines.limit - lines.data);
  if (header.array) {
    long long n = header.sizes[0];
    header.sizes[2] = header.negated ? n * (n - 1) / 2 : header.mirrored ? n * (n + 1) / 2 : n * header.sizes[1];
  }
  if (header.declared_edges() > MAX_EDGES) {
    raise("", 0, path + " has " + with_commas(header.declared_edges()) + " edges, more than gir's limit of " +
                     with_commas(MAX_EDGES));
  }
  return header;
}

// The value an entry line's `tokens` give (one number, two for a complex
// one), raising where a token is no number of the file's field.
inline double entry_value(const Lines& lines, const MtxHeader& header, const std::pair<const char*, const char*>* tokens,
                          Checks& checks) {
  double parts[2] = {0, 0};
  for (size_t i = 0; i < (header.complex ? 2u : 1u); ++i) {
    long long integer = 0;
    bool ok = header.numbers ? parse_number(tokens[i].first, tokens[i].second, parts[i])
                             : parse_integer(tokens[i].first, tokens[i].second, integer);
    if (!ok) not_a(lines, tokens[i], header.numbers ? "a number" : "an integer");
    if (!header.numbers) parts[i] = (double)integer;
  }
  if (parts[1] != 0) {
    checks.note(Checks::WEIGHTS, lines, "the value has a nonzero imaginary part (gir's weights are real numbers)");
  }
  return parts[0];
}

// Keeps the entry (row, col) of value `value` (0-based indices known to be in
// range), checking its weight and, for a skew-symmetric file, its place.
inline void keep_entry(const Lines& lines, const MtxHeader& header, long long row, long long col, double value,
                       Stretch& stretch) {
  int32_t weight = 0;
  std::string problem;
  if (header.negated && row == col) {
    stretch.checks.note(Checks::DIAGONAL, lines, "a skew-symmetric matrix has a zero diagonal: its file lists no diagonal entries");
  }
  if (header.has_weights && !weight_value(value, weight, problem)) stretch.checks.note(Checks::WEIGHTS, lines, problem);
  if (header.negated && weight == INT32_MIN) {
    stretch.checks.note(Checks::WEIGHTS, lines, "the mirrored weight 2147483648 does not fit in int32");
  }
  stretch.src.push_back((int32_t)row);
  stretch.dst.push_back((int32_t)col);
  if (header.has_weights) stretch.weights.push_back(weight);
}

// A 1-based index token of a coordinate entry, in [1, size]: its 0-based value
// (or -1, the problem noted).
inline long long entry_index(const Lines& lines, const MtxHeader& header, size_t axis,
                             std::pair<const char*, const char*> token, Checks& checks) {
  long long index = 0;
  if (!parse_integer(token.first, token.second, index)) {
    double value = 0;
    if (!header.numbers || !parse_number(token.first, token.second, value)) {
      not_a(lines, token, header.numbers ? "a number" : "an integer");
    }
    if (!std::isfinite(value) || value != std::floor(value)) {
      checks.note(Checks::INTEGRAL, lines, "row and column indices must be integers");
      return -1;
    }
    index = value < -9.2e18 ? LLONG_MIN : value > 9.2e18 ? LLONG_MAX : (long long)value;
  }
  Checks::Kind kind = axis == 0 ? Checks::ROWS : Checks::COLUMNS;
  if (index < 1) {
    checks.note(kind, lines, "vertex index " + std::to_string(index) + " is below 1");
    return -1;
  }
  if (index > header.sizes[axis]) {
    checks.note(kind, lines, "vertex index " + std::to_string(index) + " is larger than the matrix size " +
                                 std::to_string(header.sizes[axis]));
    return -1;
  }
  return index - 1;
}

// A coordinate body: 1-based (row, col) and, unless a pattern, the value.
inline Stretch coordinate_body(const std::string& path, const MtxHeader& header, Lines& lines) {
  size_t columns = header.columns();
  auto parse_line = [&header, columns](const Lines& lines, Stretch& stretch) {
    std::pair<const char*, const char*> tokens[4];
    row_tokens(lines, columns, tokens);
    // Tokens first (as gir reads a line: each must be a number of its kind),
    // then the indices' ranges, then the value.
    long long row = entry_index(lines, header, 0, tokens[0], stretch.checks);
    long long col = entry_index(lines, header, 1, tokens[1], stretch.checks);
    double value = header.has_weights ? entry_value(lines, header, tokens + 2, stretch.checks) : 1;
    keep_entry(lines, header, row < 0 ? 0 : row, col < 0 ? 0 : col, value, stretch);
  };
  // A line of indices within the matrix and a value that is a weight as it
  // stands (no complex values; a skew-symmetric file's entries off the diagonal
  // and with a weight that mirrors).
  auto fast_line = [&header, columns](const char* c, const char* limit, Stretch& stretch) -> const char* {
    if (header.complex) return nullptr;
    long long row = 0, col = 0, integer = 1;
    double value = 1;
    c = scan_integer(c, limit, false, row);
    if (c != nullptr) c = scan_integer(c, limit, false, col);
    if (c != nullptr && columns == 3) {
      c = header.numbers ? scan_number(c, limit, value) : scan_integer(c, limit, true, integer);
      if (!header.numbers) value = (double)integer;
    }
    if (c == nullptr || (c = scan_line_end(c, limit)) == nullptr) return nullptr;
    if (row < 1 || row > header.sizes[0] || col < 1 || col > header.sizes[1]) return nullptr;
    if (!std::isfinite(value)) return nullptr;
    value = std::nearbyint(value);
    if (value <= INT32_MIN || value > INT32_MAX || (header.negated && row == col)) return nullptr;
    stretch.src.push_back((int32_t)(row - 1));
    stretch.dst.push_back((int32_t)(col - 1));
    if (header.has_weights) stretch.weights.push_back((int32_t)value);
    return c;
  };
  return parse_stretches(path, lines.data, lines.limit, lines.number, header.has_weights, fast_line, parse_line);
}

// An array body: the values column by column, one a line (a complex value: two
// numbers), of the whole matrix (general) or of its lower triangle, diagonal
// included unless skew-symmetric; a zero is no edge.
inline Stretch array_body(const MtxHeader& header, Lines& lines) {
  Stretch stretch;
  long long rows = header.sizes[0], first = header.negated ? 1 : 0;
  long long row = first, col = 0;
  std::pair<const char*, const char*> tokens[2];
  while (lines.next()) {
    if (lines.blank_or_comment()) continue;
    row_tokens(lines, header.columns(), tokens);
    double value = entry_value(lines, header, tokens, stretch.checks);
    if (stretch.entries++ >= header.sizes[2]) continue;  // counted for the message, not kept
    if (value != 0) keep_entry(lines, header, row, col, value, stretch);
    if (++row == rows) {
      ++col;
      row = header.mirrored ? col : header.negated ? col + 1 : 0;
    }
  }
  return stretch;
}

// A Matrix Market file (coordinate or array; pattern, integer, real or complex;
// general, symmetric, skew-symmetric or hermitian; see MtxHeader): 1-based
// indices, the vertex count is max(rows, cols).
inline Parsed matrix_market(const std::string& path, const std::string& data) {
  Lines lines(path, data);
  MtxHeader header = matrix_market_header(path, lines);
  long long declared = header.sizes[2], size_line = header.size_line;
  Stretch body = header.array ? array_body(header, lines) : coordinate_body(path, header, lines);
  if (body.entries != declared) {
    const char* what = header.array ? " values" : " entries";
    raise(path, 0, std::string(body.entries < declared ? "truncated file" : header.array ? "too many values" : "too many entries") +
                       ": the size line (line " + std::to_string(size_line) + ") declares " + std::to_string(declared) +
                       what + " but " + std::to_string(body.entries) + " were found");
  }
  body.checks.raise_first(path);
  Parsed parsed;
  parsed.has_weights = header.has_weights;
  parsed.vertices = header.vertices();
  parsed.src = std::move(body.src);
  parsed.dst = std::move(body.dst);
  parsed.weights = std::move(body.weights);
  if (header.mirrored || header.negated) {
    size_t stored = parsed.src.size();
    parsed.src.reserve(2 * stored);
    parsed.dst.reserve(2 * stored);
    if (parsed.has_weights) parsed.weights.reserve(2 * stored);
    for (size_t i = 0; i < stored; ++i) {
      if (parsed.src[i] != parsed.dst[i]) {
        parsed.src.push_back(parsed.dst[i]);
        parsed.dst.push_back(parsed.src[i]);
        if (parsed.has_weights) parsed.weights.push_back(header.negated ? -parsed.weights[i] : parsed.weights[i]);
      }
    }
  }
  return parsed;
}

inline uint64_t edge_key(int32_t src, int32_t dst) { return ((uint64_t)(uint32_t)src << 32) | (uint32_t)dst; }

const char BINARY_MAGIC[] = "GIRBIN1\n";
const size_t BINARY_HEADER = 32;

// gir's binary edge file (`write_binary_graph` in gir.runtime.graph.io): the
// magic "GIRBIN1\n", int64 vertices, edges and flags (1: weighted), then int32
// src[edges], dst[edges] and, when weighted, weights[edges], little-endian; the
// edges sorted by (src, dst) without duplicates, as gir's Graph holds them.
inline Parsed binary_graph(const std::string& path, const std::string& data) {
  if (data.size() < BINARY_HEADER || std::memcmp(data.data(), BINARY_MAGIC, 8) != 0) {
    raise(path, 0, "not a gir binary graph (expected the magic 'GIRBIN1')");
  }
  int64_t header[3];
  std::memcpy(header, data.data() + 8, sizeof header);
  long long vertices = header[0], count = header[1], flags = header[2];
  bool has_weights = flags == 1;
  size_t columns = has_weights ? 3 : 2;
  if (vertices < 0 || vertices > MAX_VERTICES || count < 0 || count > MAX_EDGES || (flags & ~1LL) != 0 ||
      (data.size() - BINARY_HEADER) != (size_t)count * sizeof(int32_t) * columns) {
    raise(path, 0, "corrupt gir binary graph: the header does not match the file's size");
  }
  Parsed parsed;
  parsed.vertices = vertices;
  parsed.has_weights = has_weights;
  parsed.sorted = true;
  const char* body = data.data() + BINARY_HEADER;
  size_t bytes = (size_t)count * sizeof(int32_t);
  parsed.src.resize((size_t)count);
  parsed.dst.resize((size_t)count);
  std::memcpy(parsed.src.data(), body, bytes);
  std::memcpy(parsed.dst.data(), body + bytes, bytes);
  if (has_weights) {
    parsed.weights.resize((size_t)count);
    std::memcpy(parsed.weights.data(), body + 2 * bytes, bytes);
  }
  for (size_t e = 0; e < (size_t)count; ++e) {
    int32_t s = parsed.src[e], d = parsed.dst[e];
    if (s < 0 || s >= vertices || d < 0 || d >= vertices) {
      raise(path, 0, "corrupt gir binary graph: edge " + std::to_string(e) + " (" + std::to_string(s) + ", " +
                         std::to_string(d) + ") leaves the " + std::to_string(vertices) + " vertices");
    }
    if (e > 0 && edge_key(parsed.src[e - 1], parsed.dst[e - 1]) >= edge_key(s, d)) {
      raise(path, 0, "corrupt gir binary graph: edge " + std::to_string(e) + " is not after edge " +
                         std::to_string(e - 1) + " in (src, dst) order");
    }
  }
  return parsed;
}

// The edges of the file `path` in `format`, from its bytes `data`.
inline Parsed parse(const std::string& path, Format format, const std::string& data) {
  switch (format) {
    case Format::EDGE_LIST: return edge_list(path, data, false);
    case Format::WEIGHTED_EDGE_LIST: return edge_list(path, data, true);
    case Format::MATRIX_MARKET: return matrix_market(path, data);
    case Format::BINARY: return binary_graph(path, data);
  }
  raise(path, 0, "unknown graph file format");
}

// ---------------------------------------------------------------------------
// Graph arrays
// ---------------------------------------------------------------------------

// Sorts `count` edges by (src, dst) in place and drops duplicates (the first
// occurrence keeps its weight; `weights` may be null); returns how many remain.
// A stable LSD radix sort over the bytes of the edge keys that vary.
inline size_t sort_unique(int32_t* src, int32_t* dst, int32_t* weights, size_t count) {
  bool ordered = true;
  for (size_t e = 1; ordered && e < count; ++e) ordered = edge_key(src[e - 1], dst[e - 1]) < edge_key(src[e], dst[e]);
  if (ordered) return count;
  std::vector<uint64_t> keys(count), spare_keys(count);
  std::vector<int32_t> payload(weights ? count : 0), spare_payload(weights ? count : 0);
  for (size_t e = 0; e < count; ++e) keys[e] = edge_key(src[e], dst[e]);
  if (weights) std::copy(weights, weights + count, payload.begin());
  const int DIGITS = 8;
  std::vector<size_t> histogram((size_t)DIGITS * 256, 0);
  for (uint64_t key : keys) {
    for (int d = 0; d < DIGITS; ++d) ++histogram[(size_t)d * 256 + ((key >> (8 * d)) & 255)];
  }
  for (int d = 0; d < DIGITS; ++d) {
    size_t* counts = &histogram[(size_t)d * 256];
    if (*std::max_element(counts, counts + 256) == count) continue;  // this byte is the same everywhere
    size_t position = 0;
    for (int b = 0; b < 256; ++b) position += std::exchange(counts[b], position);
    for (size_t e = 0; e < count; ++e) {
      size_t to = counts[(keys[e] >> (8 * d)) & 255]++;
      spare_keys[to] = keys[e];
      if (weights) spare_payload[to] = payload[e];
    }
    keys.swap(spare_keys);
    payload.swap(spare_payload);
  }
  size_t kept = 0;
  for (size_t e = 0; e < count; ++e) {
    if (e > 0 && keys[e] == keys[e - 1]) continue;
    src[kept] = (int32_t)(keys[e] >> 32);
    dst[kept] = (int32_t)(uint32_t)keys[e];
    if (weights) weights[kept] = payload[e];
    ++kept;
  }
  return kept;
}

// CSR row pointers (vertices + 1 entries) of `count` edges sorted by row;
// `Offset` is int32_t, or int64_t for a graph of more than 2^31 - 1 edges.
template <typename Offset>
inline void row_pointers(const int32_t* rows, size_t count, long long vertices, Offset* pointers) {
  std::fill(pointers, pointers + vertices + 1, 0);
  for (size_t e = 0; e < count; ++e) ++pointers[(size_t)rows[e] + 1];
  for (long long v = 0; v < vertices; ++v) pointers[v + 1] += pointers[v];
}

// The reversed edges of (src, dst)-sorted edges, sorted by (dst, src): a stable
// counting sort by destination. Out: reversed[src] = dst and so on.
inline void transpose(const int32_t* src, const int32_t* dst, const int32_t* weights, size_t count, long long vertices,
                      int32_t* out_src, int32_t* out_dst, int32_t* out_weights) {
  std::vector<int64_t> next((size_t)vertices + 1);
  row_pointers(dst, count, vertices, next.data());
  for (size_t e = 0; e < count; ++e) {
    size_t position = (size_t)next[(size_t)dst[e]]++;
    out_src[position] = dst[e];
    out_dst[position] = src[e];
    if (weights) out_weights[position] = weights[e];
  }
}

// How many ranges of `size` vertices tile `vertices` (at least one).
inline long long block_count(long long vertices, long long size) { return std::max(1LL, (vertices + size - 1) / size); }

// Edge blocking (G2's EdgeBlocking): the edges, in the order given, stably
// sorted by block: block k holds the edges whose destination (`by_source`: whose
// source) lies in [k*size, (k+1)*size), at positions offsets[k] .. offsets[k+1]-1.
// Given (src, dst)-sorted edges this is PUSH's tiling; given them in (dst, src)
// order and `by_source`, PULL's (the transpose's).
template <typename Offset>
inline void tile(const int32_t* src, const int32_t* dst, const int32_t* weights, size_t count, long long vertices,
                 long long size, bool by_source, Offset* offsets, int32_t* out_src, int32_t* out_dst,
                 int32_t* out_weights) {
  if (size <= 0) raise("", 0, "edge blocking needs a positive blocking size, got " + std::to_string(size));
  const int32_t* tiled = by_source ? src : dst;
  long long blocks = block_count(vertices, size);
  std::fill(offsets, offsets + blocks + 1, 0);
  for (size_t e = 0; e < count; ++e) ++offsets[(size_t)(tiled[e] / size) + 1];
  for (long long b = 0; b < blocks; ++b) offsets[b + 1] += offsets[b];
  std::vector<int64_t> next(offsets, offsets + blocks);
  for (size_t e = 0; e < count; ++e) {
    size_t position = (size_t)next[(size_t)(tiled[e] / size)]++;
    out_src[position] = src[e];
    out_dst[position] = dst[e];
    if (weights) out_weights[position] = weights[e];
  }
}

// Runs `work(first, last)` over [0, total) in one range per hardware thread
// where the host was built with GIR_GRAPH_THREADS, else in one range.
template <typename Work> inline void in_parallel(size_t total, Work work) {
#ifdef GIR_GRAPH_THREADS
  size_t threads = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), total / 4096 + 1));
  std::vector<std::thread> workers;
  for (size_t k = 1; k < threads; ++k) workers.emplace_back(work, total * k / threads, total * (k + 1) / threads);
  work(0, total / threads);
  for (std::thread& worker : workers) worker.join();
#else
  work(0, total);
#endif
}

// Runs `work(first, last)` over [0, total) in blocks of `block` taken in turn
// by one thread per hardware thread (GIR_GRAPH_THREADS, else one): for work whose
// cost per item varies (rows of skewed degrees).
template <typename Work> inline void in_parallel_blocks(size_t total, size_t block, Work work) {
  std::atomic<size_t> next{0};
  auto take = [&] {
    for (size_t first; (first = next.fetch_add(block)) < total;) work(first, std::min(first + block, total));
  };
#ifdef GIR_GRAPH_THREADS
  size_t threads = std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), total / block + 1));
  std::vector<std::thread> workers;
  for (size_t k = 1; k < threads; ++k) workers.emplace_back(take);
  take();
  for (std::thread& worker : workers) worker.join();
#else
  take();
#endif
}

// How many threads work on `total` items: one per hardware thread where the
// host was built with GIR_GRAPH_THREADS, else one.
inline size_t thread_count(size_t total) {
#ifdef GIR_GRAPH_THREADS
  return std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), total / 4096 + 1));
#else
  (void)total;
  return 1;
#endif
}

// Runs `work(thread)` for each thread in [0, threads), each in a thread of its own.
template <typename Work> inline void on_threads(size_t threads, Work work) {
#ifdef GIR_GRAPH_THREADS
  std::vector<std::thread> workers;
  for (size_t t = 1; t < threads; ++t) workers.emplace_back(work, t);
  work((size_t)0);
  for (std::thread& worker : workers) worker.join();
#else
  for (size_t t = 0; t < threads; ++t) work(t);
#endif
}

// Both directions of `count` drawn edges, without self loops or duplicates,
// sorted by (src, dst), written to out_src/out_dst (room for 2 * count each);
// returns how many. `edge(e, s, d)` sets drawn edge e (called twice per edge,
// from any thread: a generator draws it again rather than keep it).
//
// A two-level counting sort by source, with no atomics and no scattered writes
// over the whole graph: each thread scatters both directions of its range of
// edges into the output, grouped by the block of their source (a few thousand
// blocks of consecutive vertices: a few thousand streams, written in order);
// then each block, on its own, is sorted by source into its rows, in
// cache-sized pieces; each row is sorted and deduplicated, and the rows are
// packed. The output is the only per-edge memory (8 bytes per output edge,
// beside what `edge` reads, and one block a thread), which lets a host build a
// graph of billions of edges (gir.runtime.graph.generators).
template <typename Edge>
inline size_t symmetric_edges_of(Edge edge, size_t count, long long vertices, int32_t* out_src, int32_t* out_dst) {
  if (vertices <= 0) return 0;
  const long long block_vertices = std::max(1LL, (vertices + 4095) / 4096);
  const size_t blocks = (size_t)((vertices + block_vertices - 1) / block_vertices);
  const size_t threads = thread_count(count);
  // Each thread's entries per block, then (block-major) where they go.
  std::vector<int64_t> at(threads * blocks, 0);
  on_threads(threads, [&](size_t t) {
    int64_t* mine = &at[t * blocks];
    for (size_t e = count * t / threads; e < count * (t + 1) / threads; ++e) {
      int32_t s, d;
      edge(e, s, d);
      if (s != d) {
        ++mine[(size_t)(s / block_vertices)];
        ++mine[(size_t)(d / block_vertices)];
      }
    }
  });
  std::vector<int64_t> block_begin(blocks + 1, 0);
  int64_t position = 0;
  for (size_t b = 0; b < blocks; ++b) {
    block_begin[b] = position;
    for (size_t t = 0; t < threads; ++t) position += std::exchange(at[t * blocks + b], position);
  }
  block_begin[blocks] = position;
  on_threads(threads, [&](size_t t) {
    int64_t* cursor = &at[t * blocks];
    for (size_t e = count * t / threads; e < count * (t + 1) / threads; ++e) {
      int32_t s, d;
      edge(e, s, d);
      if (s != d) {
        int64_t forward = cursor[(size_t)(s / block_vertices)]++;
        out_src[forward] = s;
        out_dst[forward] = d;
        int64_t backward = cursor[(size_t)(d / block_vertices)]++;
        out_src[backward] = d;
        out_dst[backward] = s;
      }
    }
  });
  // Each block sorted by source into its rows (out_dst), each row sorted and
  // deduplicated: begin[v] is where row v starts, kept[v] its length after.
  std::vector<int64_t> begin((size_t)vertices + 1, 0), kept((size_t)vertices, 0);
  begin[(size_t)vertices] = block_begin[blocks];
  in_parallel_blocks(blocks, 1, [&](size_t first_block, size_t last_block) {
    std::vector<int32_t> sources, targets;
    std::vector<int64_t> starts;
    for (size_t b = first_block; b < last_block; ++b) {
      int64_t from = block_begin[b], to = block_begin[b + 1];
      long long first_vertex = (long long)b * block_vertices;
      size_t width = (size_t)(std::min(vertices, first_vertex + block_vertices) - first_vertex);
      sources.assign(out_src + from, out_src + to);
      targets.assign(out_dst + from, out_dst + to);
      starts.assign(width + 1, 0);
      for (int32_t s : sources) ++starts[(size_t)(s - first_vertex) + 1];
      for (size_t i = 0; i < width; ++i) starts[i + 1] += starts[i];
      for (size_t i = 0; i < width; ++i) begin[(size_t)first_vertex + i] = from + starts[i];
      for (size_t i = 0; i < sources.size(); ++i) out_dst[from + starts[(size_t)(sources[i] - first_vertex)]++] = targets[i];
      for (size_t i = 0; i < width; ++i) {  // starts[i] is now where row i ends
        int32_t* row = out_dst + begin[(size_t)first_vertex + i];
        int32_t* row_end = out_dst + from + starts[i];
        std::sort(row, row_end);
        kept[(size_t)first_vertex + i] = std::unique(row, row_end) - row;
      }
    }
  });
  // Packed rows start at the prefix sums of `kept`. Rows move left by a varying
  // amount, so threads could overwrite rows another has yet to move: the packed
  // rows go to out_src first (unused so far), then back, and out_src is filled
  // with the sources, each step in parallel.
  std::vector<int64_t> packed((size_t)vertices + 1, 0);
  for (long long v = 0; v < vertices; ++v) packed[(size_t)v + 1] = packed[(size_t)v] + kept[(size_t)v];
  size_t total = (size_t)packed[(size_t)vertices];
  if (total == (size_t)begin[(size_t)vertices]) {  // nothing dropped: the rows are where they belong
    in_parallel_blocks((size_t)vertices, 4096, [&](size_t first, size_t last) {
      for (size_t v = first; v < last; ++v) std::fill(out_src + packed[v], out_src + packed[v + 1], (int32_t)v);
    });
    return total;
  }
  in_parallel_blocks((size_t)vertices, 4096, [&](size_t first, size_t last) {
    for (size_t v = first; v < last; ++v) std::copy(out_dst + begin[v], out_dst + begin[v] + kept[v], out_src + packed[v]);
  });
  in_parallel(total, [&](size_t first, size_t last) { std::copy(out_src + first, out_src + last, out_dst + first); });
  in_parallel_blocks((size_t)vertices, 4096, [&](size_t first, size_t last) {
    for (size_t v = first; v < last; ++v) std::fill(out_src + packed[v], out_src + packed[v + 1], (int32_t)v);
  });
  return total;
}

// symmetric_edges_of the drawn edges (src[e], dst[e]).
inline size_t symmetric_edges(const int32_t* src, const int32_t* dst, size_t count, long long vertices,
                              int32_t* out_src, int32_t* out_dst) {
  auto drawn = [&](size_t e, int32_t& s, int32_t& d) {
    s = src[e];
    d = dst[e];
  };
  return symmetric_edges_of(drawn, count, vertices, out_src, out_dst);
}

// The splitmix64 finalizer: a well-mixing hash of one 64-bit value.
inline uint64_t splitmix64(uint64_t value) {
  value += 0x9E3779B97F4A7C15ULL;
  value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ULL;
  value = (value ^ (value >> 27)) * 0x94D049BB133111EBULL;
  return value ^ (value >> 31);
}

// Drawn edge e of the uniform generator with `seed` over `vertices` vertices:
// both ends from one hash of (seed, e), each 32-bit half scaled to [0, vertices)
// by a multiply-shift. A function of e alone, so any thread draws any edge, and
// the graph does not depend on the number of threads.
inline void uniform_edge(uint64_t seed, long long vertices, size_t e, int32_t& s, int32_t& d) {
  uint64_t bits = splitmix64(seed ^ splitmix64(e));
  s = (int32_t)(((bits >> 32) * (uint64_t)vertices) >> 32);
  d = (int32_t)(((bits & 0xFFFFFFFFULL) * (uint64_t)vertices) >> 32);
}

// The symmetric graph of `count` uniformly drawn edges (uniform_edge), drawn
// as they are needed: 8 bytes a output edge at the peak.
inline size_t uniform_symmetric_edges(uint64_t seed, size_t count, long long vertices, int32_t* out_src,
                                      int32_t* out_dst) {
  uint64_t mixed = splitmix64(seed);
  auto drawn = [&](size_t e, int32_t& s, int32_t& d) { uniform_edge(mixed, vertices, e, s, d); };
  return symmetric_edges_of(drawn, count, vertices, out_src, out_dst);
}

// The ends of `count` RMAT edges from their draws, one 16-bit draw a level and
// edge (`draws[level * count + e]`, the order gir/runtime/graph/generators.py
// draws them in): at each of `scale` levels an edge falls in quadrant a, b, c
// or d of the adjacency matrix (a draw below past_a, past_b, past_c or none),
// which sets one bit of its source (c, d) and of its destination (b, d).
inline void rmat_ends(const uint16_t* draws, size_t count, int scale, uint16_t past_a, uint16_t past_b,
                      uint16_t past_c, uint32_t* src, uint32_t* dst) {
  in_parallel(count, [&](size_t first, size_t last) {
    constexpr size_t block = 2048;  // edges a pass over the levels takes: each level's draws read in a row
    for (size_t begin = first; begin < last; begin += block) {
      size_t end = std::min(begin + block, last);
      std::fill(src + begin, src + end, 0u);
      std::fill(dst + begin, dst + end, 0u);
      uint32_t* __restrict to_src = src + begin;  // no aliasing: the loop below vectorises
      uint32_t* __restrict to_dst = dst + begin;
      for (int level = 0; level < scale; ++level) {
        const uint16_t* __restrict row = draws + (size_t)level * count + begin;
        for (size_t e = 0; e < end - begin; ++e) {
          uint32_t beyond_b = row[e] >= past_b;
          to_src[e] = (to_src[e] << 1) | beyond_b;
          to_dst[e] = (to_dst[e] << 1) | ((uint32_t)(row[e] >= past_a) ^ beyond_b ^ (uint32_t)(row[e] >= past_c));
        }
      }
    }
  });
}

// ids[i] = permutation[ids[i]] for `count` ids, in place.
inline void permute_ids(const int32_t* permutation, size_t count, int32_t* ids) {
  in_parallel(count, [&](size_t first, size_t last) {
    for (size_t i = first; i < last; ++i) ids[i] = permutation[ids[i]];
  });
}

// Checks edges that should be a Graph's: ids in [0, vertices) and strictly
// increasing (src, dst) order. Returns -1 when they are, else the position of
// the first edge that is not (out of range, or not after the edge before it),
// for the caller to explain. Spread over threads: a pass over the edges.
inline long long first_unsorted_edge(const int32_t* src, const int32_t* dst, size_t count, long long vertices) {
  std::atomic<long long> first_bad{-1};
  in_parallel(count, [&](size_t first, size_t last) {
    for (size_t e = first; e < last; ++e) {
      bool in_range = src[e] >= 0 && src[e] < vertices && dst[e] >= 0 && dst[e] < vertices;
      bool after = e == 0 || edge_key(src[e - 1], dst[e - 1]) < edge_key(src[e], dst[e]);
      if (!in_range || !after) {
        long long seen = first_bad.load();
        while ((seen < 0 || (long long)e < seen) && !first_bad.compare_exchange_weak(seen, (long long)e)) {
        }
        return;
      }
    }
  });
  return first_bad.load();
}

// CSR row pointers (vertices + 1 entries) of `count` ids sorted by row, spread
// over threads: a row starts where the row id changes.
template <typename Offset>
inline void sorted_row_pointers(const int32_t* rows, size_t count, long long vertices, Offset* pointers) {
  if (count == 0) {
    std::fill(pointers, pointers + vertices + 1, 0);
    return;
  }
  // Rows [0, rows[0]] start at 0, rows after the last one's at count.
  std::fill(pointers, pointers + (size_t)rows[0] + 1, 0);
  std::fill(pointers + (size_t)rows[count - 1] + 1, pointers + vertices + 1, (Offset)count);
  in_parallel(count, [&](size_t first, size_t last) {
    for (size_t e = std::max<size_t>(first, 1); e < last; ++e) {
      for (int32_t row = rows[e - 1] + 1; row <= rows[e]; ++row) pointers[row] = (Offset)e;
    }
  });
}

// The columns in [begin, end) of every row of a CSR whose rows are sorted
// (ptr, idx, weights may be null): the rows restricted to those columns, as a
// CSR of its own (out_ptr has vertices + 1 entries; out_idx and out_weights
// room for the kept entries; returns how many). A partitioned run's CSC part:
// the in-edges of every vertex from the part's sources. Spread over threads.
template <typename In, typename Out>
inline size_t column_range(const In* ptr, const int32_t* idx, const int32_t* weights, long long vertices, int32_t begin,
                           int32_t end, Out* out_ptr, int32_t* out_idx, int32_t* out_weights) {
  std::vector<int64_t> first_kept((size_t)vertices);
  out_ptr[0] = 0;
  in_parallel_blocks((size_t)vertices, 4096, [&](size_t first, size_t last) {
    for (size_t v = first; v < last; ++v) {
      const int32_t* row = idx + ptr[v];
      const int32_t* row_end = idx + ptr[v + 1];
      const int32_t* from = std::lower_bound(row, row_end, begin);
      first_kept[v] = from - idx;
      out_ptr[v + 1] = (Out)(std::lower_bound(from, row_end, end) - from);
    }
  });
  for (long long v = 0; v < vertices; ++v) out_ptr[v + 1] += out_ptr[v];
  in_parallel_blocks((size_t)vertices, 4096, [&](size_t first, size_t last) {
    for (size_t v = first; v < last; ++v) {
      size_t length = (size_t)(out_ptr[v + 1] - out_ptr[v]);
      std::copy(idx + first_kept[v], idx + first_kept[v] + length, out_idx + out_ptr[v]);
      if (weights) std::copy(weights + first_kept[v], weights + first_kept[v] + length, out_weights + out_ptr[v]);
    }
  });
  return (size_t)out_ptr[vertices];
}

// The graph file `path` as sorted edges without duplicates: what both hosts load.
inline Parsed load(const std::string& path) {
  Format format = graph_format(path);
  Parsed parsed = parse(path, format, read_file(path));
  if ((long long)parsed.src.size() > MAX_EDGES) {
    raise("", 0, path + " has " + with_commas((long long)parsed.src.size()) + " edges, more than gir's limit of " +
                     with_commas(MAX_EDGES));
  }
  if (!parsed.sorted) {
    size_t kept = sort_unique(parsed.src.data(), parsed.dst.data(), parsed.has_weights ? parsed.weights.data() : nullptr,
                              parsed.src.size());
    parsed.src.resize(kept);
    parsed.dst.resize(kept);
    if (parsed.has_weights) parsed.weights.resize(kept);
    parsed.sorted = true;
  }
  return parsed;
}

// ---------------------------------------------------------------------------
// Reorderings: gir/reorder.py's registry for the complete CUDA program. Each
// gives `order`, the old ids in their new order (order[new] = old); DEGREE,
// HUB_CLUSTER and DEGREE_GROUP equal the Python host's (stable sorts on the
// same keys), RCM is a reverse Cuthill-McKee of its own (each component from a
// vertex of least degree, neighbours by increasing degree).
// ---------------------------------------------------------------------------

// Each vertex's in-degree plus out-degree.
inline std::vector<long long> total_degrees(long long vertices, const int32_t* src, const int32_t* dst, size_t count) {
  std::vector<long long> degrees((size_t)vertices, 0);
  for (size_t e = 0; e < count; ++e) {
    ++degrees[(size_t)src[e]];
    ++degrees[(size_t)dst[e]];
  }
  return degrees;
}

// The vertices stably sorted by `key` (smallest first).
template <typename Key> std::vector<int32_t> stable_order(long long vertices, Key key) {
  std::vector<int32_t> order((size_t)vertices);
  for (long long v = 0; v < vertices; ++v) order[(size_t)v] = (int32_t)v;
  std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return key(a) < key(b); });
  return order;
}

inline std::vector<int32_t> reverse_cuthill_mckee(long long vertices, const int32_t* src, const int32_t* dst,
                                                  size_t count, const std::vector<long long>& degrees) {
  std::vector<int32_t> pointers((size_t)vertices + 1, 0), neighbours(2 * count);
  for (size_t e = 0; e < count; ++e) {
    ++pointers[(size_t)src[e] + 1];
    ++pointers[(size_t)dst[e] + 1];
  }
  for (long long v = 0; v < vertices; ++v) pointers[(size_t)v + 1] += pointers[(size_t)v];
  std::vector<int32_t> fill(pointers.begin(), pointers.end() - 1);
  for (size_t e = 0; e < count; ++e) {
    neighbours[(size_t)fill[(size_t)src[e]]++] = dst[e];
    neighbours[(size_t)fill[(size_t)dst[e]]++] = src[e];
  }
  std::vector<int32_t> by_degree = stable_order(vertices, [&](int32_t v) { return degrees[(size_t)v]; });
  std::vector<char> seen((size_t)vertices, 0);
  std::vector<int32_t> order;
  order.reserve((size_t)vertices);
  for (int32_t start : by_degree) {
    if (seen[(size_t)start]) continue;
    seen[(size_t)start] = 1;
    order.push_back(start);
    for (size_t head = order.size() - 1; head < order.size(); ++head) {  // breadth first
      int32_t v = order[head];
      size_t first = order.size();
      for (int32_t i = pointers[(size_t)v]; i < pointers[(size_t)v + 1]; ++i) {
        int32_t w = neighbours[(size_t)i];
        if (!seen[(size_t)w]) {
          seen[(size_t)w] = 1;
          order.push_back(w);
        }
      }
      std::stable_sort(order.begin() + (long)first, order.end(),
                       [&](int32_t a, int32_t b) { return degrees[(size_t)a] < degrees[(size_t)b]; });
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

// The order of the reordering `name`; an Error for an unknown name.
inline std::vector<int32_t> reorder(const std::string& name, long long vertices, const int32_t* src,
                                    const int32_t* dst, size_t count) {
  std::vector<long long> degrees = total_degrees(vertices, src, dst, count);
  if (name == "DEGREE") {
    return stable_order(vertices, [&](int32_t v) { return -degrees[(size_t)v]; });
  }
  if (name == "HUB_CLUSTER") {
    double total = 0;
    for (long long degree : degrees) total += (double)degree;
    double average = vertices ? total / (double)vertices : 0.0;
    return stable_order(vertices, [&](int32_t v) { return (double)degrees[(size_t)v] > average ? 0 : 1; });
  }
  if (name == "DEGREE_GROUP") {
    auto group = [&](int32_t v) {
      long long degree = degrees[(size_t)v];
      int bits = 0;
      while (bits < 62 && (1LL << (bits + 1)) <= degree) ++bits;  // floor(log2(degree)) for degree >= 1
      return degree > 0 ? -(bits + 1) : 0;
    };
    return stable_order(vertices, group);
  }
  if (name == "RCM") {
    return reverse_cuthill_mckee(vertices, src, dst, count, degrees);
  }
  raise("", 0, "unknown reordering '" + name + "'");
}

// Relabels sorted edges by `order` in place (vertex order[new] becomes new),
// sorted again by (src, dst); `new_of_old` receives the inverse of `order`.
inline void relabel(const std::vector<int32_t>& order, std::vector<int32_t>& src, std::vector<int32_t>& dst,
                    std::vector<int32_t>& weights, std::vector<int32_t>& new_of_old) {
  new_of_old.assign(order.size(), 0);
  for (size_t position = 0; position < order.size(); ++position) new_of_old[(size_t)order[position]] = (int32_t)position;
  for (size_t e = 0; e < src.size(); ++e) {
    src[e] = new_of_old[(size_t)src[e]];
    dst[e] = new_of_old[(size_t)dst[e]];
  }
  sort_unique(src.data(), dst.data(), weights.empty() ? nullptr : weights.data(), src.size());
}

}  // namespace gir_graph
