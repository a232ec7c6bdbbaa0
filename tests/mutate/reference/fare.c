/* fare: the price of a ticket by age */
int fare(int age);

int fare(int age)
{
	if (age < 6)
		return 0;
	if (age < 18)
		return 5;
	return 10;
}
