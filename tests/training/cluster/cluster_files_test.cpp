// What processes sharing a run folder rely on: leases (one holder, a gone or silent holder's
// lease broken, given back on exit), worker file names, temporaries and their sweep.
#include <gtest/gtest.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/temporary_file.h"
#include "training/cluster/lease.h"
#include "training/cluster/run_files.h"

namespace fairyzero {
namespace {
namespace fs = std::filesystem;

class ClusterFiles : public ::testing::Test {
 protected:
  ClusterFiles() {
    dir_ = fs::temp_directory_path() /
           ("fairyzero_cluster_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~ClusterFiles() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // A lease file as another process would have left it.
  void write_lease(const std::string& file, const std::string& host, long pid) {
    std::ofstream(file) << "host=" << host << "\npid=" << pid
                        << "\nsince=2026-01-01T00:00:00Z\nrole=someone\n";
  }
  static void make_old(const std::string& file, int seconds) {
    timeval times[2];
    gettimeofday(&times[0], nullptr);
    times[0].tv_sec -= seconds;
    times[1] = times[0];
    ::utimes(file.c_str(), times);
  }

  fs::path dir_;
};

TEST_F(ClusterFiles, ASecondHolderIsRefusedWithWhoHoldsIt) {
  const std::string file = path("trainer.lease");
  {
    Lease first(file, "the trainer of run");
    EXPECT_TRUE(first.held());
    try {
      Lease second(file, "the trainer of run");
      FAIL() << "a second lease was granted";
    } catch (const LeaseHeldError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("process " + std::to_string(::getpid())), std::string::npos)
          << message;
      EXPECT_NE(message.find(host_name()), std::string::npos) << message;
      EXPECT_NE(message.find("the trainer of run"), std::string::npos) << message;
    }
    EXPECT_TRUE(first.held());  // the refused attempt left it alone
  }
  EXPECT_FALSE(fs::exists(file));  // given back
  Lease again(file, "the trainer of run");
  EXPECT_TRUE(again.held());
}

TEST_F(ClusterFiles, ALeaseOfAGoneProcessOnThisHostIsBroken) {
  const pid_t child = fork();
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);  // a pid that no process has now
  const std::string file = path("w1.lease");
  write_lease(file, host_name(), child);
  Lease lease(file, "worker 1");
  EXPECT_TRUE(lease.held());
}

TEST_F(ClusterFiles, AnotherHostsLeaseIsBrokenOnlyOnceStale) {
  const std::string file = path("trainer.lease");
  write_lease(file, "some-other-node", 12345);
  EXPECT_THROW(Lease(file, "trainer", 60), LeaseHeldError);  // fresh: it may be alive
  make_old(file, 600);
  Lease lease(file, "trainer", 60);
  EXPECT_TRUE(lease.held());
}

TEST_F(ClusterFiles, ALeaseTakenOverIsNoLongerHeld) {
  const std::string file = path("trainer.lease");
  Lease lease(file, "trainer", 60);
  write_lease(file, "some-other-node", 1);
  EXPECT_FALSE(lease.held());
}

TEST_F(ClusterFiles, WorkerFileNamesRoundTrip) {
  const WorkerFile file{3, 12, 4567};
  EXPECT_EQ(worker_file_stem(file), "gen-0003-w12-004567");
  const auto parsed = parse_worker_file("gen-0003-w12-004567.h5");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->generation, 3);
  EXPECT_EQ(parsed->worker, 12);
  EXPECT_EQ(parsed->sequence, 4567);
  EXPECT_FALSE(parse_worker_file("gen-0003.h5"));  // the single-process trainer's
  EXPECT_FALSE(parse_worker_file("gen-0003-w12-004567.h5.tmp-host-1-0"));
  EXPECT_FALSE(parse_worker_file("gen-0003-w12-004567x.h5"));
}

TEST_F(ClusterFiles, HighestSequenceIsPerWorkerAndIgnoresTemporaries) {
  for (const char* name :
       {"gen-0000-w1-000000.h5", "gen-0001-w1-000007.h5", "gen-0001-w2-000009.h5",
        "gen-0001-w1-000008.h5.tmp-h-1-0", "gen-0001-w1-000011.txt"})
    std::ofstream(path(name)) << "x";
  EXPECT_EQ(highest_worker_sequence(dir_.string(), 1), 7);
  EXPECT_EQ(highest_worker_sequence(dir_.string(), 2), 9);
  EXPECT_EQ(highest_worker_sequence(dir_.string(), 3), -1);
}

TEST_F(ClusterFiles, WorkerGamesOfAGenerationCountTheRecordsOfEveryWorkerAndTheHeldOutOnes) {
  fs::create_directories(dir_ / "games");
  fs::create_directories(dir_ / "validation");
  std::ofstream(path("games/gen-0002-w0-000003.txt")) << "game 1\ngame 2\n";
  std::ofstream(path("games/gen-0002-w5-000000.txt")) << "game 3\n";
  std::ofstream(path("validation/gen-0002-w0-000003.txt")) << "game 4\n";
  std::ofstream(path("games/gen-0001-w0-000002.txt")) << "of generation 1\n";
  std::ofstream(path("games/gen-0002.txt")) << "the single-process trainer's\n";
  std::ofstream(path("games/gen-0002-w1-000001.txt.tmp-h-1-0")) << "being written\n";
  EXPECT_EQ(worker_games_of_generation(dir_.string(), 2), 4);
  EXPECT_EQ(worker_games_of_generation(dir_.string(), 1), 1);
  EXPECT_EQ(worker_games_of_generation(dir_.string(), 3), 0);
}

TEST_F(ClusterFiles, TemporariesNameTheirWriterAndOnlyOldOnesAreSwept) {
  const std::string name = temporary_name(path("a.h5"));
  EXPECT_NE(name.find(".tmp-" + host_name() + "-" + std::to_string(::getpid()) + "-"),
            std::string::npos);
  EXPECT_NE(temporary_name(path("a.h5")), name);
  EXPECT_TRUE(is_temporary_name(fs::path(name).filename().string()));
  std::ofstream(name) << "partial";
  const std::string old = temporary_name(path("b.h5"));
  std::ofstream(old) << "partial";
  make_old(old, 7200);
  std::ofstream(path("c.h5")) << "published";
  make_old(path("c.h5"), 7200);
  const std::vector<std::string> removed = sweep_temporaries(dir_.string(), 3600);
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0], old);
  EXPECT_TRUE(fs::exists(name));
  EXPECT_TRUE(fs::exists(path("c.h5")));
}

TEST_F(ClusterFiles, TextIsWrittenWholeOrNotAtAll) {
  write_text_atomically(path("x.txt"), "one\n");
  write_text_atomically(path("x.txt"), "two\n");
  std::ifstream in(path("x.txt"));
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "two");
  EXPECT_THROW(write_text_atomically(path("missing/x.txt"), "x"), std::runtime_error);
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir_)) files += entry.is_regular_file();
  EXPECT_EQ(files, 1u);  // no temporary left
}

}  // namespace
}  // namespace fairyzero
