// C++ host implementations of lang_number_lists.gt's extern functions: a list of
// numbers is the program's std::vector, passed by pointer as GraphIt passes it.
#include <algorithm>
#include <vector>

int sum_list(std::vector<int>* numbers) {
  int sum = 0;
  for (int value : *numbers) sum += value;
  return sum;
}

void drop_odd(std::vector<int>* numbers) {
  numbers->erase(std::remove_if(numbers->begin(), numbers->end(), [](int n) { return n % 2 != 0; }),
                 numbers->end());
}
