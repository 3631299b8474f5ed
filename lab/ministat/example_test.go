package ministat_test

import (
	"fmt"
	"os"

	"github.com/gohal/gohal/lab/ministat"
)

// The example of ministat's manual page: `ministat -s -w 60 -c 80 iguana
// chameleon`.
func Example() {
	iguana := ministat.Sample{Name: "iguana", Values: []float64{50, 200, 150, 400, 750, 400, 150}}
	chameleon := ministat.Sample{Name: "chameleon", Values: []float64{150, 400, 720, 500, 930}}
	err := ministat.Write(os.Stdout, []ministat.Sample{iguana, chameleon},
		ministat.Options{Confidence: 80, Width: 60, Stack: true})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// x iguana
	// + chameleon
	// +------------------------------------------------------------+
	// |x      *  x            *      +              + x           +|
	// | |________M______A_______________|                          |
	// |             |________________M__A___________________|      |
	// +------------------------------------------------------------+
	//     N           Min           Max        Median           Avg        Stddev
	// x   7            50           750           200           300     238.04761
	// +   5           150           930           500           540     299.08193
	// Difference at 80.0% confidence
	// 	240 +/- 212.215
	// 	80% +/- 70.7384%
	// 	(Student's t, pooled s = 264.159)
}

func ExampleCompare() {
	old := ministat.Sample{Name: "old", Values: []float64{10, 11, 12}}
	cur := ministat.Sample{Name: "new", Values: []float64{20, 22, 24}}
	r, err := ministat.Compare(old, cur, 95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("df=%d t=%.3f significant=%v\n", r.DF, r.T, r.Significant)
	fmt.Print(r)
	// Output:
	// df=4 t=2.776 significant=true
	// Difference at 95.0% confidence
	// 	11 +/- 3.5838
	// 	100% +/- 32.58%
	// 	(Student's t, pooled s = 1.58114)
}
