// The C ABI through which the Python host (gir.runtime.graph.native, ctypes)
// calls graph_build.h: the same loader and graph arrays a complete CUDA program
// compiles in. A failing call returns -1 (or null) and leaves its error for
// gir_error_path / gir_error_line / gir_error_message.
#include <new>

// The Python host parses large text files in parallel (graph_build.h: stretch_count).
#define GIR_GRAPH_THREADS 1
#include "graph_build.h"

namespace {

thread_local gir_graph::Error last_error;

// Runs `work`, turning a thrown error into the -1 of the C ABI.
template <typename Work> long long guarded(Work work) {
  try {
    return work();
  } catch (const gir_graph::Error& error) {
    last_error = error;
  } catch (const std::bad_alloc&) {
    last_error = gir_graph::Error{"", 0, "out of host memory while building the graph"};
  }
  return -1;
}

// A graph file between gir_file_open and gir_file_close.
struct File {
  std::string path;
  gir_graph::Format format;
  std::string data;
  gir_graph::Parsed parsed;
};

}  // namespace

extern "C" {

const char* gir_error_path() { return last_error.path.c_str(); }
long long gir_error_line() { return last_error.line; }
const char* gir_error_message() { return last_error.message.c_str(); }

// Checks that `path` is a regular graph file of a known extension: 0, or -1.
long long gir_file_check(const char* path) {
  return guarded([&] {
    gir_graph::graph_format(path);
    return 0LL;
  });
}

// Reads the graph file `path` (see gir_file_check): a handle, or null.
void* gir_file_open(const char* path) {
  File* file = nullptr;
  guarded([&] {
    gir_graph::Format format = gir_graph::graph_format(path);
    file = new File{path, format, gir_graph::read_file(path), {}};
    return 0LL;
  });
  return file;
}

// How many lines the file has (its newlines plus one).
long long gir_file_lines(void* handle) { return (long long)gir_graph::line_count(static_cast<File*>(handle)->data); }

// The vertices and edges a file's header declares (-1, -1 for a file without
// one): 0, or -1 if the header is bad.
long long gir_file_declared(void* handle, long long* vertices, long long* edges) {
  File* file = static_cast<File*>(handle);
  *vertices = *edges = -1;
  return guarded([&] {
    if (file->format == gir_graph::Format::MATRIX_MARKET) {
      gir_graph::Lines lines(file->path, file->data);
      gir_graph::MtxHeader header = gir_graph::matrix_market_header(file->path, lines);
      *vertices = header.vertices();
      *edges = header.declared_edges();
    }
    return 0LL;
  });
}

// Parses the file's edges (file order): 0, or -1. Its bytes are released.
long long gir_file_parse(void* handle) {
  File* file = static_cast<File*>(handle);
  return guarded([&] {
    file->parsed = gir_graph::parse(file->path, file->format, file->data);
    std::string().swap(file->data);
    return 0LL;
  });
}

long long gir_file_vertices(void* handle) { return static_cast<File*>(handle)->parsed.vertices; }
long long gir_file_edges(void* handle) { return (long long)static_cast<File*>(handle)->parsed.src.size(); }
long long gir_file_weighted(void* handle) { return static_cast<File*>(handle)->parsed.has_weights; }

// Sorts the parsed edges by (src, dst) without duplicates and copies them out
// (`weights` may be null): the count of edges, or -1.
long long gir_file_edges_sorted(void* handle, int32_t* src, int32_t* dst, int32_t* weights) {
  File* file = static_cast<File*>(handle);
  return guarded([&] {
    gir_graph::Parsed& parsed = file->parsed;
    size_t count = parsed.src.size();
    if (!parsed.sorted) {
      count = gir_graph::sort_unique(parsed.src.data(), parsed.dst.data(),
                                     parsed.has_weights ? parsed.weights.data() : nullptr, count);
    }
    std::copy(parsed.src.begin(), parsed.src.begin() + count, src);
    std::copy(parsed.dst.begin(), parsed.dst.begin() + count, dst);
    if (weights != nullptr && parsed.has_weights) std::copy(parsed.weights.begin(), parsed.weights.begin() + count, weights);
    return (long long)count;
  });
}

void gir_file_close(void* handle) { delete static_cast<File*>(handle); }

long long gir_sort_unique(int32_t* src, int32_t* dst, int32_t* weights, long long count) {
  return guarded([&] { return (long long)gir_graph::sort_unique(src, dst, weights, (size_t)count); });
}

// Row pointers of ids sorted by row (the Python host's rows are always sorted).
void gir_row_pointers(const int32_t* rows, long long count, long long vertices, int32_t* pointers) {
  gir_graph::sorted_row_pointers(rows, (size_t)count, vertices, pointers);
}

void gir_row_pointers64(const int32_t* rows, long long count, long long vertices, int64_t* pointers) {
  gir_graph::sorted_row_pointers(rows, (size_t)count, vertices, pointers);
}

long long gir_first_unsorted_edge(const int32_t* src, const int32_t* dst, long long count, long long vertices) {
  return gir_graph::first_unsorted_edge(src, dst, (size_t)count, vertices);
}

long long gir_uniform_symmetric_edges(unsigned long long seed, long long count, long long vertices, int32_t* out_src,
                                      int32_t* out_dst) {
  return guarded([&] {
    return (long long)gir_graph::uniform_symmetric_edges(seed, (size_t)count, vertices, out_src, out_dst);
  });
}

// gir_graph::column_range of a CSR whose row pointers are int32 (ptr_bits 32)
// or int64 (64), into row pointers of out_bits.
long long gir_column_range(const void* ptr, long long ptr_bits, const int32_t* idx, const int32_t* weights,
                           long long vertices, long long begin, long long end, void* out_ptr, long long out_bits,
                           int32_t* out_idx, int32_t* out_weights) {
  return guarded([&] {
    auto into = [&](auto* in) {
      if (out_bits == 64)
        return gir_graph::column_range(in, idx, weights, vertices, (int32_t)begin, (int32_t)end,
                                       static_cast<int64_t*>(out_ptr), out_idx, out_weights);
      return gir_graph::column_range(in, idx, weights, vertices, (int32_t)begin, (int32_t)end,
                                     static_cast<int32_t*>(out_ptr), out_idx, out_weights);
    };
    if (ptr_bits == 64) return (long long)into(static_cast<const int64_t*>(ptr));
    return (long long)into(static_cast<const int32_t*>(ptr));
  });
}

long long gir_symmetric_edges(const int32_t* src, const int32_t* dst, long long count, long long vertices,
                              int32_t* out_src, int32_t* out_dst) {
  return guarded([&] { return (long long)gir_graph::symmetric_edges(src, dst, (size_t)count, vertices, out_src, out_dst); });
}

long long gir_transpose(const int32_t* src, const int32_t* dst, const int32_t* weights, long long count,
                        long long vertices, int32_t* out_src, int32_t* out_dst, int32_t* out_weights) {
  return guarded([&] {
    gir_graph::transpose(src, dst, weights, (size_t)count, vertices, out_src, out_dst, out_weights);
    return 0LL;
  });
}

long long gir_tile(const int32_t* src, const int32_t* dst, const int32_t* weights, long long count, long long vertices,
                   long long size, long long by_source, int32_t* offsets, int32_t* out_src, int32_t* out_dst,
                   int32_t* out_weights) {
  return guarded([&] {
    gir_graph::tile(src, dst, weights, (size_t)count, vertices, size, by_source != 0, offsets, out_src, out_dst,
                    out_weights);
    return 0LL;
  });
}

long long gir_tile64(const int32_t* src, const int32_t* dst, const int32_t* weights, long long count,
                     long long vertices, long long size, long long by_source, int64_t* offsets, int32_t* out_src,
                     int32_t* out_dst, int32_t* out_weights) {
  return guarded([&] {
    gir_graph::tile(src, dst, weights, (size_t)count, vertices, size, by_source != 0, offsets, out_src, out_dst,
                    out_weights);
    return 0LL;
  });
}

void gir_rmat_ends(const uint16_t* draws, long long count, long long scale, long long past_a, long long past_b,
                   long long past_c, uint32_t* src, uint32_t* dst) {
  gir_graph::rmat_ends(draws, (size_t)count, (int)scale, (uint16_t)past_a, (uint16_t)past_b, (uint16_t)past_c, src,
                       dst);
}

void gir_permute_ids(const int32_t* permutation, long long count, int32_t* ids) {
  gir_graph::permute_ids(permutation, (size_t)count, ids);
}

long long gir_reorder(const char* name, long long vertices, const int32_t* src, const int32_t* dst, long long count,
                      int32_t* order) {
  return guarded([&] {
    std::vector<int32_t> made = gir_graph::reorder(name, vertices, src, dst, (size_t)count);
    std::copy(made.begin(), made.end(), order);
    return 0LL;
  });
}

}  // extern "C"
