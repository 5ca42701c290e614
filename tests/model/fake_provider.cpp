// The fake provider's server. cpp-httplib's default pool has max(8, cores-1) threads; the pool here
// is larger so the benchmark's 32 concurrent requests are served at once.
#include "tests/model/fake_provider.h"

#include <httplib.h>
#include <sys/socket.h>

#include <chrono>
#include <nlohmann/json.hpp>

namespace pkb::test {
namespace {

constexpr int kServerThreads = 64;
// cpp-httplib 0.11 listens with a backlog of 5, compiled into Debian's library; 32 simultaneous
// connects then overflow the accept queue and the kernel retries them a second later, which would
// make the benchmark measure TCP retransmission. The listening socket's backlog is raised again.
constexpr int kListenBacklog = 256;
constexpr int kStartupPolls = 200;  // x 5 ms: the server must be up within a second

std::string sse(const nlohmann::json& data, const std::string& event = "") {
  return (event.empty() ? "" : "event: " + event + "\n") + "data: " + data.dump() + "\n\n";
}

FakeReply stream_reply(std::vector<std::string> chunks) {
  FakeReply reply;
  reply.content_type = "text/event-stream";
  reply.chunks = std::move(chunks);
  return reply;
}

}  // namespace

struct FakeProvider::Impl {
  httplib::Server server;
};

FakeProvider::FakeProvider(int port) : impl_(std::make_unique<Impl>()) {
  impl_->server.new_task_queue = [] { return new httplib::ThreadPool(kServerThreads); };
  impl_->server.Post(".*", [this](const httplib::Request& request, httplib::Response& response) {
    SeenRequest seen{request.target, {}, request.body};
    for (const auto& [name, value] : request.headers) {
      std::string lower = name;
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      seen.headers[lower] = value;
    }
    const FakeReply reply = next(seen);
    const int now = ++in_flight_;
    int peak = peak_in_flight_.load();
    while (now > peak && !peak_in_flight_.compare_exchange_weak(peak, now)) {
    }
    if (reply.latency_ms > 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(reply.latency_ms));
    response.status = reply.status;
    for (const auto& [name, value] : reply.headers) response.set_header(name, value);
    if (reply.chunks.empty()) {
      response.set_content(reply.body, reply.content_type.c_str());
      --in_flight_;
      return;
    }
    response.set_chunked_content_provider(
        reply.content_type, [this, reply](std::size_t, httplib::DataSink& sink) {
          for (std::size_t index = 0; index < reply.chunks.size(); ++index) {
            if (static_cast<int>(index) == reply.stall_before_chunk)
              std::this_thread::sleep_for(std::chrono::milliseconds(reply.stall_ms));
            if (!sink.write(reply.chunks[index].data(), reply.chunks[index].size())) break;
          }
          --in_flight_;
          if (reply.abort_after_chunks) return false;
          sink.done();
          return true;
        });
  });
  int listen_fd = -1;
  impl_->server.set_socket_options([&listen_fd](socket_t sock) {
    httplib::default_socket_options(sock);
    listen_fd = sock;
  });
  impl_->server.set_keep_alive_max_count(1000);
  // An idle kept-alive connection holds a server thread, and stop() waits for it: the default 5 s
  // made every test that outlives its client's connection wait 5 s. Clients reconnect when needed.
  impl_->server.set_keep_alive_timeout(1);
  impl_->server.set_tcp_nodelay(
      true);  // SSE sends small writes: no Nagle + delayed-ACK 40 ms stalls
  if (port > 0)
    port_ = impl_->server.bind_to_port("127.0.0.1", port) ? port : 0;
  else
    port_ = impl_->server.bind_to_any_port("127.0.0.1");
  if (listen_fd >= 0) ::listen(listen_fd, kListenBacklog);
  thread_ = std::thread([this] { impl_->server.listen_after_bind(); });
  for (int poll = 0; poll < kStartupPolls && !impl_->server.is_running(); ++poll)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

FakeProvider::~FakeProvider() {
  impl_->server.stop();
  if (thread_.joinable()) thread_.join();
}

std::string FakeProvider::base_url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

void FakeProvider::script(std::vector<FakeReply> replies) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto& reply : replies) scripted_.push_back(std::move(reply));
}

void FakeProvider::set_default(std::function<FakeReply(const SeenRequest&)> make) {
  std::lock_guard<std::mutex> lock(mutex_);
  default_ = std::move(make);
}

std::vector<SeenRequest> FakeProvider::seen() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return seen_;
}

FakeReply FakeProvider::next(const SeenRequest& request) {
  std::lock_guard<std::mutex> lock(mutex_);
  seen_.push_back(request);
  if (!scripted_.empty()) {
    FakeReply reply = scripted_.front();
    scripted_.pop_front();
    return reply;
  }
  if (default_) return default_(request);
  return fake::error(
      500, "{\"error\": {\"message\": \"no scripted reply\", \"type\": \"server_error\"}}");
}

namespace fake {

std::vector<std::string> split(const std::string& text, int parts) {
  std::vector<std::string> out;
  const std::size_t size = std::max<std::size_t>(1, (text.size() + parts - 1) / std::max(1, parts));
  for (std::size_t pos = 0; pos < text.size(); pos += size) out.push_back(text.substr(pos, size));
  if (out.empty()) out.push_back("");
  return out;
}

FakeReply error(int status, const std::string& body, std::map<std::string, std::string> headers) {
  FakeReply reply;
  reply.status = status;
  reply.body = body;
  reply.headers = std::move(headers);
  if (!body.empty() && body[0] == '<') reply.content_type = "text/html";
  return reply;
}

FakeReply chat(const std::string& text, const std::string& finish, const std::string& thinking) {
  nlohmann::json message = {{"role", "assistant"}, {"content", text}};
  if (!thinking.empty()) message["reasoning_content"] = thinking;
  FakeReply reply;
  reply.headers["x-request-id"] = "req_fake_chat";
  reply.body =
      nlohmann::json{{"id", "chatcmpl-fake"},
                     {"object", "chat.completion"},
                     {"model", "fake-model-2026"},
                     {"choices", {{{"index", 0}, {"finish_reason", finish}, {"message", message}}}},
                     {"usage",
                      {{"prompt_tokens", 100},
                       {"completion_tokens", 50},
                       {"total_tokens", 150},
                       {"prompt_tokens_details", {{"cached_tokens", 64}}},
                       {"completion_tokens_details", {{"reasoning_tokens", 20}}}}}}
          .dump();
  return reply;
}

FakeReply chat_stream(const std::string& text, const std::string& finish,
                      const std::string& thinking, bool terminated) {
  std::vector<std::string> chunks;
  auto chunk = [](const nlohmann::json& delta, const nlohmann::json& finish_reason) {
    return sse({{"id", "chatcmpl-fake"},
                {"object", "chat.completion.chunk"},
                {"model", "fake-model-2026"},
                {"choices", {{{"index", 0}, {"delta", delta}, {"finish_reason", finish_reason}}}}});
  };
  if (!thinking.empty()) chunks.push_back(chunk({{"reasoning_content", thinking}}, nullptr));
  for (const auto& piece : split(text, 3)) chunks.push_back(chunk({{"content", piece}}, nullptr));
  chunks.push_back(chunk(nlohmann::json::object(), finish));
  chunks.push_back(sse({{"id", "chatcmpl-fake"},
                        {"choices", nlohmann::json::array()},
                        {"usage", {{"prompt_tokens", 100}, {"completion_tokens", 50}}}}));
  if (terminated) chunks.push_back("data: [DONE]\n\n");
  return stream_reply(chunks);
}

nlohmann::json response_object(const std::string& text, const std::string& status,
                               const std::string& reason) {
  return {{"id", "resp_fake"},
          {"object", "response"},
          {"status", status},
          {"model", "fake-model-2026"},
          {"incomplete_details",
           reason.empty() ? nlohmann::json(nullptr) : nlohmann::json{{"reason", reason}}},
          {"output",
           {{{"type", "reasoning"},
             {"id", "rs_1"},
             {"summary", {{{"type", "summary_text"}, {"text", "```cuda\nthought\n```"}}}}},
            {{"type", "message"},
             {"id", "msg_1"},
             {"role", "assistant"},
             {"content", {{{"type", "output_text"}, {"text", text}}}}}}},
          {"usage",
           {{"input_tokens", 100},
            {"input_tokens_details", {{"cached_tokens", 0}}},
            {"output_tokens", 50},
            {"output_tokens_details", {{"reasoning_tokens", 30}}}}}};
}

FakeReply responses(const std::string& text, const std::string& status, const std::string& reason) {
  FakeReply reply;
  reply.body = response_object(text, status, reason).dump();
  return reply;
}

FakeReply responses_stream(const std::string& text, const std::string& status,
                           const std::string& reason, bool terminated) {
  std::vector<std::string> chunks = {sse({{"type", "response.created"}}, "response.created")};
  for (const auto& piece : split(text, 3))
    chunks.push_back(sse({{"type", "response.output_text.delta"}, {"delta", piece}},
                         "response.output_text.delta"));
  const std::string terminal = status == "completed" ? "response.completed" : "response." + status;
  if (terminated)
    chunks.push_back(
        sse({{"type", terminal}, {"response", response_object(text, status, reason)}}, terminal));
  return stream_reply(chunks);
}

FakeReply anthropic(const std::string& text, const std::string& stop, const std::string& thinking) {
  nlohmann::json content = nlohmann::json::array();
  if (!thinking.empty())
    content.push_back({{"type", "thinking"}, {"thinking", thinking}, {"signature", "sig"}});
  content.push_back({{"type", "text"}, {"text", text}});
  nlohmann::json usage = {{"input_tokens", 10},
                          {"cache_read_input_tokens", 80},
                          {"cache_creation_input_tokens", 10},
                          {"output_tokens", 50}};
  if (!thinking.empty()) usage["output_tokens_details"] = {{"thinking_tokens", 30}};
  FakeReply reply;
  reply.headers["request-id"] = "req_fake_anthropic";
  reply.body = nlohmann::json{{"id", "msg_fake"},       {"type", "message"},  {"role", "assistant"},
                              {"model", "claude-fake"}, {"content", content}, {"stop_reason", stop},
                              {"usage", usage}}
                   .dump();
  return reply;
}

FakeReply anthropic_stream(const std::string& text, const std::string& stop,
                           const std::string& thinking, bool terminated) {
  std::vector<std::string> chunks;
  chunks.push_back(sse({{"type", "message_start"},
                        {"message",
                         {{"id", "msg_fake"},
                          {"model", "claude-fake"},
                          {"usage", {{"input_tokens", 10}, {"cache_read_input_tokens", 80}}}}}},
                       "message_start"));
  int index = 0;
  if (!thinking.empty()) {
    chunks.push_back(sse({{"type", "content_block_start"},
                          {"index", index},
                          {"content_block", {{"type", "thinking"}}}},
                         "content_block_start"));
    chunks.push_back(sse({{"type", "content_block_delta"},
                          {"index", index},
                          {"delta", {{"type", "thinking_delta"}, {"thinking", thinking}}}},
                         "content_block_delta"));
    chunks.push_back(sse({{"type", "content_block_stop"}, {"index", index}}, "content_block_stop"));
    ++index;
  }
  chunks.push_back(": keep-alive comment\n\n");
  chunks.push_back(sse({{"type", "ping"}}, "ping"));
  chunks.push_back(sse(
      {{"type", "content_block_start"}, {"index", index}, {"content_block", {{"type", "text"}}}},
      "content_block_start"));
  for (const auto& piece : split(text, 3))
    chunks.push_back(sse({{"type", "content_block_delta"},
                          {"index", index},
                          {"delta", {{"type", "text_delta"}, {"text", piece}}}},
                         "content_block_delta"));
  chunks.push_back(sse({{"type", "content_block_stop"}, {"index", index}}, "content_block_stop"));
  // As the Messages API does: message_delta's usage is cumulative, its input fields may be null,
  // and the thinking part of the output comes in output_tokens_details.
  nlohmann::json usage = {{"output_tokens", 50}, {"input_tokens", nullptr}};
  if (!thinking.empty()) usage["output_tokens_details"] = {{"thinking_tokens", 30}};
  chunks.push_back(
      sse({{"type", "message_delta"}, {"delta", {{"stop_reason", stop}}}, {"usage", usage}},
          "message_delta"));
  if (terminated) chunks.push_back(sse({{"type", "message_stop"}}, "message_stop"));
  return stream_reply(chunks);
}

nlohmann::json gemini_chunk(const nlohmann::json& parts, const std::string& finish, bool usage) {
  nlohmann::json candidate = {{"index", 0}, {"content", {{"role", "model"}, {"parts", parts}}}};
  if (!finish.empty()) candidate["finishReason"] = finish;
  nlohmann::json doc = {
      {"candidates", {candidate}}, {"modelVersion", "gemini-fake-001"}, {"responseId", "gem_fake"}};
  if (usage)
    doc["usageMetadata"] = {{"promptTokenCount", 100},
                            {"candidatesTokenCount", 40},
                            {"thoughtsTokenCount", 25},
                            {"totalTokenCount", 165}};
  return doc;
}

FakeReply gemini(const std::string& text, const std::string& finish, const std::string& thinking) {
  nlohmann::json parts = nlohmann::json::array();
  if (!thinking.empty()) parts.push_back({{"text", thinking}, {"thought", true}});
  parts.push_back({{"text", text}});
  FakeReply reply;
  reply.body = gemini_chunk(parts, finish, true).dump();
  return reply;
}

FakeReply gemini_stream(const std::string& text, const std::string& finish,
                        const std::string& thinking, bool terminated) {
  std::vector<std::string> chunks;
  if (!thinking.empty())
    chunks.push_back(sse(gemini_chunk({{{"text", thinking}, {"thought", true}}}, "", false)));
  const auto pieces = split(text, 3);
  for (std::size_t index = 0; index < pieces.size(); ++index) {
    const bool last = index + 1 == pieces.size();
    if (last && !terminated) break;
    chunks.push_back(sse(gemini_chunk({{{"text", pieces[index]}}}, last ? finish : "", last)));
  }
  return stream_reply(chunks);
}

}  // namespace fake
}  // namespace pkb::test
