// The one base class of the errors a user can act on (a malformed file, an illegal move, a
// damaged checkpoint, a wrong command line): main() catches it once and prints the message.
// Broken invariants are asserts; anything else reaching main() is an internal error.
#pragma once

#include <stdexcept>

namespace fairyzero {

class UserError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A setting given a value it does not accept: a search parameter out of its range, an unknown
// device, a malformed --sprt. The message names the setting.
class SettingError : public UserError {
 public:
  using UserError::UserError;
};

}  // namespace fairyzero
